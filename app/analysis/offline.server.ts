import type { Analysis, Intent, SentimentLabel, Enquiry } from './analysis'
import {
  businessNouns,
  businessOwners,
  businessWords,
  courtesyPhrases,
  courtesyWords,
  feelinglessWords,
  intentCues,
  months,
  notThisWeek,
  notThisWeekAfter,
  spamPhrasing,
  urgencyCues,
  weekdays,
} from './cues'
import { cuesOf, otherLanguages, writtenIn, type OtherLanguage, type WrittenLanguage } from './languages/written-in'
import { createOrderReader, type FarmHours } from './order-reading'
import type { Product } from './products'
import { countLinks, isShouting, spamVerdict } from './spam-signals'
import { PhraseIndex, read, sentimentOf, type PhraseMatch, type Reading, type Word } from './reading.server'

/**
 * Reads one message without leaving the process; `now`, the farm's wall clock (wallTime), places
 * "Friday" or "12 June", and the farm's opening hours, when known, the hours of "Saturday morning".
 */
export type OfflineReader = (form: Enquiry, now: Date, hours?: FarmHours | null) => Analysis

type Cue = { intent: Intent; weight: number } | { intent: null }

const englishCues = [
  ...Object.entries(intentCues).flatMap(([intent, cues]) =>
    Object.entries(cues).map(([phrase, weight]) => ({ phrase, value: { intent: intent as Intent, weight } as Cue })),
  ),
  ...businessNouns.flatMap((noun) => [
    { phrase: noun, value: { intent: 'wholesale' as const, weight: 1 } },
    ...businessOwners.map((owner) => ({
      phrase: `${owner} ${noun}`,
      value: { intent: 'wholesale' as const, weight: 3 },
    })),
  ]),
  ...courtesyPhrases.map((phrase) => ({ phrase, value: { intent: null } as Cue })),
]

/** What the reader looks for in a message written in one language: English's cues, and the language's own. */
interface LanguageKit {
  cues: PhraseIndex<Cue>
  urgency: PhraseIndex<boolean>
  courtesy: ReadonlySet<string>
  /** Words that put a sentence in the past: an order or a visit it tells of is not a new one. */
  pastTimes: ReadonlySet<string>
  asking: ReadonlySet<string>
  later: ReadonlySet<string>
  /** A word that tells of the past: English's verb forms, by the model; another language's time words. */
  isPast: (word: Word) => boolean
  weekdays: ReadonlySet<string>
  spam: PhraseIndex<number>
}

const spamIndexOf = (phrasing: Record<string, number>) =>
  new PhraseIndex(Object.entries(phrasing).map(([phrase, weight]) => ({ phrase, value: weight })))

const englishKit: LanguageKit = {
  cues: new PhraseIndex(englishCues),
  urgency: new PhraseIndex(urgencyCues.map((phrase) => ({ phrase, value: true }))),
  courtesy: courtesyWords,
  pastTimes: new Set(['yesterday', 'last', 'ago']),
  asking: new Set(['will', 'would', 'can', 'could', 'need', 'want', 'please', 'is', 'are', 'am', 'going']),
  later: new Set(['next']),
  isPast,
  weekdays,
  spam: spamIndexOf(spamPhrasing),
}

/**
 * English's and these languages' cues together: one language's, or all when a short message does
 * not tell which; then English's tenses still tell the past, and only English's pitch words count.
 */
function kitOf(languages: OtherLanguage[]): LanguageKit {
  const sure = languages.length === 1
  const own = languages.map((language) => cuesOf[language])
  const ownCues = own.flatMap(({ intents }) =>
    Object.entries(intents).flatMap(([intent, cues]) =>
      Object.entries(cues).map(([phrase, weight]) => ({ phrase, value: { intent: intent as Intent, weight } as Cue })),
    ),
  )
  const pastTimes = new Set(own.flatMap((cues) => cues.pastTimes))
  return {
    cues: new PhraseIndex([...englishCues, ...ownCues]),
    urgency: new PhraseIndex(
      [...urgencyCues, ...own.flatMap((cues) => cues.urgency)].map((phrase) => ({ phrase, value: true })),
    ),
    courtesy: new Set([...courtesyWords, ...own.flatMap((cues) => cues.courtesy)]),
    pastTimes: new Set([...englishKit.pastTimes, ...pastTimes]),
    asking: new Set([...englishKit.asking, ...own.flatMap((cues) => cues.asking)]),
    later: new Set([...englishKit.later, ...own.flatMap((cues) => cues.later)]),
    isPast: sure ? (word) => pastTimes.has(word.normal) : (word) => pastTimes.has(word.normal) || isPast(word),
    weekdays: sure ? new Set([...weekdays, ...(own[0]?.shortWeekdays ?? [])]) : weekdays,
    spam: spamIndexOf(Object.assign({}, spamPhrasing, ...(sure ? own.map((cues) => cues.spam) : []))),
  }
}

// Each language's kit is made on its first message: a farm that hears only English holds only English's.
const kits = new Map<WrittenLanguage | null, LanguageKit>([['en', englishKit]])
function kitFor(language: WrittenLanguage | null): LanguageKit {
  let kit = kits.get(language)
  if (!kit) {
    kit = kitOf(language === null ? otherLanguages : [language as OtherLanguage])
    kits.set(language, kit)
  }
  return kit
}

/** Intents whose single cue words flip under a negation: "no problem", "not great". */
const turnedByNegation: ReadonlySet<Intent> = new Set(['complaint', 'feedback'])
const weights = new Set(['kg', 'kilo', 'kilogram', 'liter', 'lb', 'pound'])
const units = new Set([
  ...weights,
  'dozen',
  'bag',
  'box',
  'jar',
  'punnet',
  'sack',
  'bunch',
  'tray',
  'crate',
  'case',
  'bucket',
  'head',
  'half',
])
const numberWords: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
  twenty: 20,
  fifty: 50,
  hundred: 100,
}
/** A household buys fewer than this many of a thing, or kilos of it (a trade sack of potatoes is 25 kg). */
const wholesaleCount = 20
const wholesaleWeight = 25

export function createOfflineReader(products: Product[]): OfflineReader {
  const terms = products.flatMap((product) => [product.name, ...product.synonyms].map((term) => ({ term, product })))
  // Only the owner's own names forgive a slip: among other languages' words, "honing" is one letter from "hoping".
  const productIndex = new PhraseIndex(
    terms.map(({ term, product }) => ({ phrase: term === product.name ? `~${term}` : term, value: product.name })),
    { nounsOnly: true },
  )
  // "Beef" is a grudge to the sentiment model; on a farm it is dinner.
  const loadedTerms = terms.map(({ term }) => term).filter((term) => sentimentOf(term) !== 0)
  const feelingless = new PhraseIndex(
    [...feelinglessWords, ...courtesyPhrases, ...loadedTerms].map((phrase) => ({ phrase, value: true })),
  )

  const readOrder = createOrderReader(products)
  const compoundProducts = compoundReader(products)

  return (form, now, hours = null) => {
    const reading = read(form.message)
    const language = writtenIn(form.message)
    const kit = kitFor(language)
    const named = productIndex.find(reading.words)
    const productMatches = [...named, ...compoundProducts(reading.words, language, named)]
    const signOffs = courtesySentences(reading, form.name, kit)
    const mood = modelMood(reading, signOffs, feelingless.find(reading.words))
    const scores = scoreIntents(reading, kit, productMatches, signOffs, form)
    const spam = readSpam(form, reading, kit)
    return {
      intents: spam.isSpam ? ['other'] : rankIntents(withMoodHints(scores, mood)),
      products: [...new Set(productMatches.map((match) => match.value))],
      sentiment: readSentiment(mood, scores),
      urgency: spam.isSpam ? { level: 'normal', cues: [] } : readUrgency(reading, kit, now),
      spam,
      source: 'offline',
      order: spam.isSpam ? null : readOrder(form.message, now, hours),
    }
  }
}

/**
 * German and Dutch join a product to another word ('Rapshonig', 'Lammkeulen', 'kaasschotel'): the
 * farm's products found as the first or last part of a longer word, in a message in those languages.
 */
function compoundReader(products: Product[]) {
  const named = new Set(products.map((product) => product.name))
  const ofTheFarm = <T>(byProduct: Record<string, T[]> = {}) =>
    Object.entries(byProduct)
      .filter(([product]) => named.has(product))
      .flatMap(([product, items]) => items.map((item) => ({ item, product })))
  const wordsOf = new Map(
    otherLanguages.map((language) => [
      language,
      new Map(ofTheFarm(cuesOf[language].productWords).map(({ item, product }) => [item, product])),
    ]),
  )
  const stemsOf = new Map(
    otherLanguages.map((language) => [
      language,
      ofTheFarm(cuesOf[language].compoundStems).map(({ item, product }) => ({
        stem: item.replace(/-$/, ''),
        onlyFirst: item.endsWith('-'),
        product,
      })),
    ]),
  )
  return (words: Word[], language: WrittenLanguage | null, named: PhraseMatch<string>[]): PhraseMatch<string>[] => {
    if (language === null || language === 'en') return []
    // 'aardappels' is potatoes, found already; not apples as well.
    const found = new Set(named.flatMap((match) => range(match.start, match.end)))
    const own = wordsOf.get(language)
    const stems = stemsOf.get(language) ?? []
    return words.flatMap((word, at) => {
      if (found.has(at)) return []
      const { normal } = word
      const product =
        own?.get(normal) ??
        stems.find(
          ({ stem, onlyFirst }) =>
            normal.length >= stem.length + 3 && (normal.startsWith(stem) || (!onlyFirst && normal.endsWith(stem))),
        )?.product
      return product ? [{ start: at, end: at + 1, value: product }] : []
    })
  }
}

/** Greetings and sign-offs ("Thanks, Maggie"): neither a request nor a feeling. */
function courtesySentences({ words, sentences }: Reading, name: string, kit: LanguageKit): Set<number> {
  const nameWords = new Set(read(name).words.map((word) => word.normal))
  const signOffs = new Set<number>()
  sentences.forEach((sentence, index) => {
    const content = words.slice(sentence.start, sentence.end).filter((word) => word.pos !== 'PUNCT')
    if (content.every((word) => kit.courtesy.has(word.normal) || nameWords.has(word.normal))) signOffs.add(index)
  })
  // A message that is nothing but thanks is a thank-you note.
  if (signOffs.size === sentences.length) signOffs.clear()
  return signOffs
}

interface IntentScore {
  score: number
  first: number
}

function scoreIntents(
  { words, sentences }: Reading,
  kit: LanguageKit,
  productMatches: PhraseMatch<string>[],
  signOffs: Set<number>,
  form: Enquiry,
): Map<Intent, IntentScore> {
  const scores = new Map<Intent, IntentScore>()
  const add = (intent: Intent, weight: number, at: number) => {
    const current = scores.get(intent) ?? { score: 0, first: at }
    scores.set(intent, { score: current.score + weight, first: Math.min(current.first, at) })
  }
  const sentencesWithOtherCues = new Set<number>()
  const askedAbout = new Set<number>()
  const cueMatches = kit.cues.find(words)
  const tellsOfThePast = new Set(words.filter((word) => kit.pastTimes.has(word.normal)).map((word) => word.sentence))
  for (const match of cueMatches) {
    const { value } = match
    const first = words[match.start] as Word
    if (value.intent === null || signOffs.has(first.sentence)) continue
    if (turnedByNegation.has(value.intent) && match.end - match.start === 1 && first.negated) continue
    // "I ordered a veg box", "the tour yesterday": an old order or visit, not a new one.
    if (
      (value.intent === 'order' || value.intent === 'visit') &&
      (kit.isPast(first) || tellsOfThePast.has(first.sentence))
    ) {
      continue
    }
    add(value.intent, value.weight, match.start)
    if (value.intent !== 'product_inquiry') sentencesWithOtherCues.add(first.sentence)
    // "Do you have [any] strawberries": the product is what is asked about.
    else if (value.weight >= 2 && productMatches.some((p) => p.start >= match.end && p.start <= match.end + 4)) {
      askedAbout.add(first.sentence)
    }
  }
  // So is a product named in a question that asks nothing else.
  sentences.forEach((sentence, index) => {
    if (!askedAbout.has(index) && (!sentence.question || sentencesWithOtherCues.has(index))) return
    const named = productMatches.find((match) => words[match.start]?.sentence === index)
    if (named) add('product_inquiry', 2, named.start)
  })
  const pricingSentences = new Set(
    cueMatches.filter((match) => match.value.intent === 'pricing').map((match) => words[match.start]?.sentence),
  )
  for (const { at, amount, weight } of quantities(words, productMatches)) {
    if (amount >= (weight ? wholesaleWeight : wholesaleCount)) add('wholesale', 2, at)
    // "Two dozen eggs for Saturday" is an order; "the price of a 10kg sack" is not.
    else if (!pricingSentences.has(words[at]?.sentence)) add('order', 2, at)
  }
  const wholesale = scores.get('wholesale')
  if (wholesale && soundsLikeABusiness(form)) scores.set('wholesale', { ...wholesale, score: wholesale.score + 1 })
  return scores
}

/** Numbers followed, within two words, by a unit or a product: "2 dozen", "200 pumpkins". */
function quantities(words: Word[], productMatches: PhraseMatch<string>[]) {
  const productStarts = new Set(productMatches.map((match) => match.start))
  const found: Array<{ at: number; amount: number; weight: boolean }> = []
  words.forEach((word, at) => {
    const amount = /^\d+(\.\d+)?$/.test(word.normal)
      ? Number(word.normal)
      : word.pos === 'NUM'
        ? numberWords[word.normal]
        : undefined
    if (amount === undefined) return
    for (const next of [at + 1, at + 2]) {
      const following = words[next]
      if (!following || following.sentence !== word.sentence) break
      if (units.has(following.lemma) || units.has(following.normal) || productStarts.has(next)) {
        found.push({ at, amount, weight: weights.has(following.lemma) || weights.has(following.normal) })
        return
      }
    }
  })
  return found
}

function soundsLikeABusiness({ name, email }: Enquiry): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase()
  const nameWords = ` ${name.toLowerCase().replace(/[^\p{L}\s]/gu, ' ')} `
  return businessWords.some((word) => domain.includes(word.replace(/\s/g, '')) || nameWords.includes(` ${word} `))
}

/** The model's mood is a hint towards praise or a grievance, never a reason on its own. */
function withMoodHints(scores: Map<Intent, IntentScore>, mood: number): Map<Intent, IntentScore> {
  const hint = mood >= moodHint ? 'feedback' : mood <= -moodHint ? 'complaint' : undefined
  if (!hint) return scores
  const current = scores.get(hint)
  return new Map(scores).set(hint, {
    score: (current?.score ?? 0) + 1,
    first: current?.first ?? Number.MAX_SAFE_INTEGER,
  })
}

/** Most likely first: by weight, a little extra for what the visitor raised first. */
function rankIntents(scores: Map<Intent, IntentScore>): Intent[] {
  const opening = Math.min(...[...scores.values()].map((entry) => entry.first))
  const ranked = [...scores.entries()]
    .map(([intent, { score, first }]) => ({ intent, first, score: score + (first === opening ? 0.5 : 0) }))
    .filter((entry) => entry.score >= 2)
    .sort((a, b) => b.score - a.score || a.first - b.first)
  const top = ranked[0]?.score ?? 0
  const kept = ranked.filter((entry) => entry.score >= top * 0.4).map((entry) => entry.intent)
  return kept.length > 0 ? kept : ['other']
}

const positiveFrom = 0.25
const negativeFrom = -0.25
const moodHint = 0.3
/** How far each point of grievance pulls the mood down ("sour", "refund" are not feelings to the model). */
const complaintPull = 0.15

/** The sentiment model's mean over the sentences that say something, politeness and farm nouns left out. */
function modelMood({ words, sentences }: Reading, signOffs: Set<number>, feelingless: PhraseMatch<boolean>[]): number {
  const masked = new Set(feelingless.flatMap((match) => range(match.start, match.end)))
  const scores = sentences.flatMap((sentence, index) => {
    if (signOffs.has(index)) return []
    const span = range(sentence.start, sentence.end)
    if (!span.some((at) => masked.has(at))) return [sentence.sentiment]
    const kept = span.filter((at) => !masked.has(at)).map((at) => words[at] as Word)
    return [sentimentOf(kept.map((word) => word.spaceBefore + word.text).join(''))]
  })
  return scores.length === 0 ? 0 : scores.reduce((sum, score) => sum + score, 0) / scores.length
}

function readSentiment(mood: number, scores: Map<Intent, IntentScore>): Analysis['sentiment'] {
  const praise = scores.get('feedback')?.score ?? 0
  const grievance = scores.get('complaint')?.score ?? 0
  // Without praise or a grievance, the model's reading of a polite question counts half.
  const base = praise === 0 && grievance === 0 ? mood / 2 : mood
  const raw = base - complaintPull * grievance
  const score = Math.round(Math.max(-1, Math.min(1, raw)) * 100) / 100
  const label: SentimentLabel = score >= positiveFrom ? 'positive' : score <= negativeFrom ? 'negative' : 'neutral'
  return { label, score: score === 0 ? 0 : score }
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, index) => start + index)
}

const maxUrgencyCues = 5
const dayMs = 24 * 60 * 60 * 1000
/** A date this many days away or fewer needs an answer now. */
const soonDays = 3

function readUrgency(reading: Reading, kit: LanguageKit, now: Date): Analysis['urgency'] {
  const { words } = reading
  const cues = kit.urgency
    .find(words)
    // "Guten Morgen", "Goedemorgen": a greeting, not tomorrow.
    .filter((match) => !greetingsBeforeMorning.has(words[match.start - 1]?.normal ?? ''))
    .filter((match) => !isAboutThePast(reading, kit, words[match.start] as Word))
    .map((match) => spoken(words, match.start, match.end))
  words.forEach((word, at) => {
    if (kit.weekdays.has(word.normal) && isThisWeek(reading, kit, at)) cues.push(word.text)
    const date = dateAt(words, at, now)
    if (date && date.days >= 0 && date.days <= soonDays) cues.push(date.text)
  })
  const distinct = [...new Set(cues)].slice(0, maxUrgencyCues)
  return { level: distinct.length > 0 ? 'high' : 'normal', cues: distinct }
}

function spoken(words: Word[], start: number, end: number): string {
  return words
    .slice(start, end)
    .map((word, index) => (index === 0 ? word.text : word.spaceBefore + word.text))
    .join('')
    .slice(0, 40)
}

/** "Collect on Saturday" is days away; "last Saturday", "the Saturday market" or "bought on Saturday" are not. */
function isThisWeek(reading: Reading, kit: LanguageKit, at: number): boolean {
  const word = reading.words[at] as Word
  if (notThisWeek.has(reading.words[at - 1]?.normal ?? '')) return false
  if (kit !== englishKit) {
    const after = reading.words[at + 1]?.normal ?? ''
    // "domenica 28 giugno": the date tells how far away it is ("Samstag 10 Uhr" is this week).
    const dated = /^\d{1,2}$/.test(after) && isMonth(reading.words[at + 2]?.normal ?? '')
    if (notThisWeekAfter.has(after) || dated) return false
  }
  return !sentenceOf(reading, word).some((other) => kit.later.has(other.normal)) && !isAboutThePast(reading, kit, word)
}

const greetingsBeforeMorning = new Set(['guten', 'goede', 'goeie'])

/** "The service today was rude" tells of what happened; "I need it today" asks for something. */
function isAboutThePast(reading: Reading, kit: LanguageKit, word: Word): boolean {
  const sentence = sentenceOf(reading, word)
  return sentence.some(kit.isPast) && !sentence.some((other) => kit.asking.has(other.normal))
}

function sentenceOf({ words, sentences }: Reading, word: Word): Word[] {
  const sentence = sentences[word.sentence]
  return sentence ? words.slice(sentence.start, sentence.end) : []
}

function isPast(word: Word): boolean {
  if (word.pos === 'AUX') return ['was', 'were', 'did', 'had'].includes(word.normal)
  return word.pos === 'VERB' && word.lemma !== word.normal && !/(ing|s)$/.test(word.normal)
}

/** "20 October", "October 20th", "the 20th of October": how many days from today. */
function dateAt(words: Word[], at: number, now: Date): { days: number; text: string } | undefined {
  const month = months.findIndex((names) => names.includes(words[at]?.normal ?? ''))
  if (month < 0) return undefined
  const dayOf = (word: Word | undefined) => {
    const match = word && /^(\d{1,2})(st|nd|rd|th)?$/.exec(word.normal)
    const day = match ? Number(match[1]) : 0
    return day >= 1 && day <= 31 ? day : undefined
  }
  // "the 20th of October", "le 20 juin", "el 20 de junio", "am 20. Juni".
  const before = monthJoins.has(words[at - 1]?.normal ?? '') ? words[at - 2] : words[at - 1]
  const day = dayOf(words[at + 1]) ?? dayOf(before)
  if (day === undefined) return undefined
  // Days on the farm's calendar: `now`'s UTC fields are its wall clock.
  const year = now.getUTCFullYear()
  const today = Date.UTC(year, now.getUTCMonth(), now.getUTCDate())
  let date = Date.UTC(year, month, day)
  // A date well in the past means next year's.
  if (date < today - 7 * dayMs) date = Date.UTC(year + 1, month, day)
  const monthName = (months[month] as string[])[0] as string
  const text = `${day} ${monthName[0]?.toUpperCase()}${monthName.slice(1)}`
  return { days: Math.round((date - today) / dayMs), text }
}

const monthJoins = new Set(['of', 'de', 'di', '.'])
const isMonth = (normal: string) => months.some((names) => names.includes(normal))

const keyboardRows = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm']

function readSpam(form: Enquiry, { words }: Reading, kit: LanguageKit): Analysis['spam'] {
  return spamVerdict({
    links: countLinks(form),
    shouting: isShouting(form.message),
    phrasing: kit.spam.find(words).reduce((sum, match) => sum + match.value, 0),
    gibberish: looksLikeGibberish(words),
  })
}

/** Keyboard mashing: words with no vowel, long consonant runs, a q without its u, or a row of keys. */
function looksLikeGibberish(words: Word[]): boolean {
  const candidates = words.filter((word) => /^[a-z]{3,}$/.test(word.normal))
  if (candidates.length === 0) return false
  const odd = candidates.filter(({ normal }) => {
    if (normal.length < 4) return !/[aeiouy]/.test(normal)
    return (
      !/[aeiouy]/.test(normal) ||
      /[^aeiouy]{5}/.test(normal) ||
      /q(?!u)./.test(normal) ||
      keyboardRows.some((row) => [...range(0, row.length - 3)].some((at) => normal.includes(row.slice(at, at + 4))))
    )
  }).length
  return odd >= 2 && odd >= candidates.length * 0.4
}
