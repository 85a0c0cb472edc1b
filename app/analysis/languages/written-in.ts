import { foldAccents } from '#app/analysis/fold-accents'
import { german } from './de'
import { spanish } from './es'
import { french } from './fr'
import { italian } from './it'
import type { LanguageCues } from './language-cues'
import { dutch } from './nl'
import { portuguese } from './pt'

/** The cues of each language the reader knows besides English. */
export const cuesOf = {
  fr: french,
  de: german,
  es: spanish,
  it: italian,
  nl: dutch,
  pt: portuguese,
} as const satisfies Record<string, LanguageCues>

export type OtherLanguage = keyof typeof cuesOf
export type WrittenLanguage = 'en' | OtherLanguage
export const otherLanguages = Object.keys(cuesOf) as OtherLanguage[]

// No word another language writes too ('a', 'me', 'no', 'in', 'so', 'is', 'we', 'do', 'u').
const english = new Set(
  [
    'the and you to of for have can please my your with it would thanks hi be are will at this that any some how',
    'what when there here was were got get one our ok yes thank hello just if or not but from by all more much many',
    'like need want come again did does could should about',
  ]
    .join(' ')
    .split(' '),
)
const commonWords: Array<[WrittenLanguage, Set<string>]> = [
  ['en', english],
  ...otherLanguages.map((language): [WrittenLanguage, Set<string>] => [language, new Set(cuesOf[language].common)]),
]
/** The first words are enough to tell, and a long message costs no more. */
const wordsLooked = 200

/** The language a message is written in: the one whose common words it uses most; null when too few tell. */
export function writtenIn(text: string): WrittenLanguage | null {
  const words = foldAccents(text.slice(0, 4_000).toLowerCase()).match(/\p{L}+(?:-\p{L}+)?/gu) ?? []
  const hits = new Map<WrittenLanguage, number>()
  for (const word of words.slice(0, wordsLooked)) {
    for (const [language, common] of commonWords) {
      if (common.has(word)) hits.set(language, (hits.get(language) ?? 0) + 1)
    }
  }
  let best: WrittenLanguage = 'en'
  for (const [language, count] of hits) if (count > (hits.get(best) ?? 0)) best = language
  const english = hits.get('en') ?? 0
  // Another language must clearly outnumber English's own words: 'No rush, ring me' is English.
  if (best === 'en' || english * 2 >= (hits.get(best) ?? 0)) return english > 0 ? 'en' : null
  return (hits.get(best) ?? 0) >= 2 ? best : null
}
