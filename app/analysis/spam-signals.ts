import type { Analysis, Enquiry, SpamSignal } from './analysis'
import { spamPhrasing } from './cues'

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
const phrases = Object.entries(spamPhrasing).map(([phrase, weight]) => ({
  words: ` ${words(phrase).join(' ')} `,
  weight,
}))

/**
 * The spam signals that need no language model and no tokeniser: links, shouting and the
 * known spam phrases, by plain word matching in linear time. Run on every message on the
 * request's own thread, so a message the analysis could not read is still checked.
 */
export function quickSpamReading(form: Enquiry): Analysis['spam'] {
  const text = ` ${words(`${form.name} ${form.message}`).join(' ')} `
  const phrasing = phrases.reduce((sum, phrase) => (text.includes(phrase.words) ? sum + phrase.weight : sum), 0)
  return spamVerdict({ links: countLinks(form), shouting: isShouting(form.message), phrasing, gibberish: false })
}
