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

const english = new Set(
  'the and you i to of is for a have do can please we my your with it would thanks hi be are will on at in this that'.split(
    ' ',
  ),
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
  return (hits.get(best) ?? 0) >= 2 ? best : null
}
