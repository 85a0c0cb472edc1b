// How well the offline reader reads the messages written in each language the site speaks: the
// unit test holds the floors, npm run bench:analysis prints the same figures and the misses.
import { createOfflineReader } from '#app/analysis/offline.server'
import { defaultFarmProducts, readProductList } from '#app/analysis/products'
import { heldOutFrench, heldOutGerman, heldOutSpanish } from '#tests/fixtures/held-out-fr-de-es'
import { heldOutDutch, heldOutItalian, heldOutPortuguese } from '#tests/fixtures/held-out-it-nl-pt'
import { dutchMessages } from '#tests/fixtures/messages-nl'
import { frenchMessages } from '#tests/fixtures/messages-fr'
import { germanMessages } from '#tests/fixtures/messages-de'
import { italianMessages } from '#tests/fixtures/messages-it'
import { portugueseMessages } from '#tests/fixtures/messages-pt'
import { spanishMessages } from '#tests/fixtures/messages-es'
import {
  heldOutMessages,
  labelledMessages,
  laterMessages,
  sentAt,
  unseenMessages,
  type LabelledMessage,
} from '#tests/fixtures/messages'

/** The languages people write in: every one the site speaks but the pseudo-language. */
export const writtenLanguages = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt'] as const
export type WrittenLanguage = (typeof writtenLanguages)[number]

export const messagesByLanguage: Record<WrittenLanguage, LabelledMessage[]> = {
  en: [...labelledMessages, ...laterMessages, ...unseenMessages],
  fr: frenchMessages,
  de: germanMessages,
  es: spanishMessages,
  it: italianMessages,
  nl: dutchMessages,
  pt: portugueseMessages,
}

/** Messages written after the reader was tuned to the sets above, never used to tune it: figures, no floor. */
export const heldOutByLanguage: Record<WrittenLanguage, LabelledMessage[]> = {
  en: heldOutMessages,
  fr: heldOutFrench,
  de: heldOutGerman,
  es: heldOutSpanish,
  it: heldOutItalian,
  nl: heldOutDutch,
  pt: heldOutPortuguese,
}

/** What the issue asks in every language (issue 50): spam is every spam caught and no customer lost. */
export const languageFloors = { intent: 0.9, products: 0.95, urgency: 0.9 } as const

export interface LanguageAccuracy {
  messages: number
  intent: number
  products: number
  urgency: number
  spamCaught: number
  spamSent: number
  customersLost: number
  misses: string[]
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((item) => b.includes(item))

export function languageAccuracy(messages: LabelledMessage[]): LanguageAccuracy {
  const read = createOfflineReader(readProductList(defaultFarmProducts))
  const misses: string[] = []
  const tally = { intent: 0, products: 0, urgency: 0, spamCaught: 0, customersLost: 0 }
  for (const message of messages) {
    const got = read(message, sentAt)
    const wrong: string[] = []
    if (got.intents[0] === message.intents[0]) tally.intent++
    else wrong.push(`intent ${got.intents[0]} (want ${message.intents[0]})`)
    if (sameSet(got.products, message.products)) tally.products++
    else wrong.push(`products [${got.products}] (want [${message.products}])`)
    if (got.urgency.level === message.urgency) tally.urgency++
    else wrong.push(`urgency ${got.urgency.level} [${got.urgency.cues}]`)
    if (message.spam && got.spam.isSpam) tally.spamCaught++
    if (message.spam !== got.spam.isSpam) wrong.push(`spam ${got.spam.isSpam} [${got.spam.reasons}]`)
    if (!message.spam && got.spam.isSpam) tally.customersLost++
    if (wrong.length > 0) misses.push(`${message.message.slice(0, 90)} → ${wrong.join('; ')}`)
  }
  const share = (count: number) => count / messages.length
  return {
    messages: messages.length,
    intent: share(tally.intent),
    products: share(tally.products),
    urgency: share(tally.urgency),
    spamCaught: tally.spamCaught,
    spamSent: messages.filter((message) => message.spam).length,
    customersLost: tally.customersLost,
    misses,
  }
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`

/** One row a language: its figures beside the floors, and whether each is met. */
export function languageAccuracyRow(language: WrittenLanguage, accuracy: LanguageAccuracy): string {
  const met =
    accuracy.intent >= languageFloors.intent &&
    accuracy.products >= languageFloors.products &&
    accuracy.urgency >= languageFloors.urgency &&
    accuracy.spamCaught === accuracy.spamSent &&
    accuracy.customersLost === 0
  return `${language} (${accuracy.messages}): intent ${percent(accuracy.intent)}, products ${percent(accuracy.products)}, urgency ${percent(accuracy.urgency)}, spam caught ${accuracy.spamCaught}/${accuracy.spamSent}, customers lost ${accuracy.customersLost} — ${met ? 'met' : 'NOT met'}`
}
