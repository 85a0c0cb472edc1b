import type { Analysis, Enquiry, SpamSignal } from './analysis'
import { foldAccents } from './fold-accents'
import { spamPhrasing } from './cues'
import { cuesOf, otherLanguages, writtenIn, type WrittenLanguage } from './languages/written-in'

/** A whole link is one link: "https://www.example.com/photo" is not three. */
const linkPattern =
  /\b(?:https?:\/\/|www\.)[^\s<>"']+|(?<![@\w.-])[a-z0-9-]+\.(?:com|net|org|biz|info|xyz|top|ru|cn|io|site|online|shop|click|link)\b/gi

export function countLinks({ name, message }: Enquiry): number {
  return (message.match(linkPattern)?.length ?? 0) + (name.match(linkPattern)?.length ?? 0)
}

/** Most of a message's letters (at least a dozen) in capitals. */
export function isShouting(message: string): boolean {
  const letters = message.match(/\p{L}/gu) ?? []
  const capitals = letters.filter((letter) => /\p{Lu}/u.test(letter)).length
  return letters.length >= 12 && capitals / letters.length >= 0.6
}

/** The one rule that turns the signals into a verdict, whichever reader found them. */
export function spamVerdict(signals: {
  links: number
  shouting: boolean
  phrasing: number
  gibberish: boolean
}): Analysis['spam'] {
  const { links, shouting, phrasing, gibberish } = signals
  const reasons: SpamSignal[] = []
  if (links > 0) reasons.push('links')
  if (shouting) reasons.push('shouting')
  if (phrasing > 0) reasons.push('spam_phrasing')
  if (gibberish) reasons.push('gibberish')
  const isSpam =
    phrasing >= 2 || gibberish || links >= 2 || (links > 0 && (shouting || phrasing > 0)) || (shouting && phrasing > 0)
  return { isSpam, reasons }
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
const phrasesOf = (phrasing: Record<string, number>) =>
  Object.entries(phrasing).map(([phrase, weight]) => ({ words: ` ${words(foldAccents(phrase)).join(' ')} `, weight }))
const englishPhrases = phrasesOf(spamPhrasing)
/** A language's pitch words count only in a message written in it: 'gratis' or 'Pret' may be a customer's in another. */
const phrasesIn = new Map<WrittenLanguage | null, ReturnType<typeof phrasesOf>>([
  ...otherLanguages.map((language): [WrittenLanguage, ReturnType<typeof phrasesOf>] => [
    language,
    [...englishPhrases, ...phrasesOf(cuesOf[language].spam)],
  ]),
])

/**
 * The spam signals that need no language model and no tokeniser: links, shouting and the
 * known spam phrases, by plain word matching in linear time. Run on every message on the
 * request's own thread, so a message the analysis could not read is still checked.
 */
export function quickSpamReading(form: Enquiry): Analysis['spam'] {
  const phrases = phrasesIn.get(writtenIn(form.message))
  // English's phrases have no accents to fold; the others' were folded.
  const written = `${form.name} ${form.message}`
  const text = ` ${words(phrases ? foldAccents(written) : written).join(' ')} `
  const phrasing = (phrases ?? englishPhrases).reduce(
    (sum, phrase) => (text.includes(phrase.words) ? sum + phrase.weight : sum),
    0,
  )
  return spamVerdict({ links: countLinks(form), shouting: isShouting(form.message), phrasing, gibberish: false })
}
