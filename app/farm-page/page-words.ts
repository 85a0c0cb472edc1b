import type { ServerMessages } from '#app/language/compiled/messages'
import { noHours, type OpeningHours } from './opening-hours'

/** Where to find the farm: each empty until the owner writes it, and shown only then. */
export interface FindUs {
  address: string
  /** Directions in words ('the second gate after the church'). */
  directions: string
  phone: string
}

/** Everything of the home page the owner writes (the form, the photos and the week's list aside). */
export interface PageWords {
  /** The welcome line's words before the farm's name ('Welcome to'). */
  welcome: string
  intro: string
  /** The two cards; `{product}` in a card becomes the farm's product. */
  cards: Array<{ title: string; text: string }>
  /** Paragraphs and [links](https://…): see story.ts. */
  story: string
  hours: OpeningHours
  findUs: FindUs
}

/** The spec's own texts: a fresh site says exactly these. */
export const defaultWords: PageWords = {
  welcome: 'Welcome to',
  intro: 'Fill out the form to stay updated with our latest products and receive exclusive offers.',
  cards: [
    {
      title: '{product} Updates',
      text: 'Be first to hear what is ripe in the fields: seasonal produce, farm events and our sustainable farming practices.',
    },
    {
      title: 'Exclusive Offers',
      text: 'Early access to limited harvests and special discounts, only for the people on our list.',
    },
  ],
  story: '',
  hours: noHours,
  findUs: { address: '', directions: '', phone: '' },
}

/**
 * The owner's words, with the spec's own (a fresh site's, or any the owner left as they were) in
 * the page's language: a French farm that has not yet written its page greets in French. Said by
 * the page's loader, so these messages never reach the browser.
 */
export function wordsIn(words: PageWords, messages: ServerMessages): PageWords {
  const own = [
    { title: messages.defaultUpdatesTitle({ product: '{product}' }), text: messages.defaultUpdatesText() },
    { title: messages.defaultOffersTitle(), text: messages.defaultOffersText() },
  ]
  const kept = (owners: string, english: string | undefined, translated: string | undefined) =>
    owners === english && translated !== undefined ? translated : owners
  return {
    ...words,
    welcome: kept(words.welcome, defaultWords.welcome, messages.defaultWelcome()),
    intro: kept(words.intro, defaultWords.intro, messages.defaultIntro()),
    cards: words.cards.map((card, index) => ({
      title: kept(card.title, defaultWords.cards[index]?.title, own[index]?.title),
      text: kept(card.text, defaultWords.cards[index]?.text, own[index]?.text),
    })),
  }
}

/** The longest each field may be, in characters. */
export const wordLimits = {
  welcome: 80,
  intro: 400,
  cardTitle: 80,
  cardText: 400,
  address: 300,
  directions: 1_000,
  phone: 30,
  note: 100,
  exceptions: 30,
}

/** A card's words with the farm's product in place of `{product}`. */
export const withProduct = (text: string, product: string) => text.replaceAll('{product}', product)

/** The phone as a tel: link takes it: digits and a leading plus only. */
export const telHref = (phone: string) => `tel:${phone.replace(/(?!^\+)[^\d]/g, '')}`

/** The address on OpenStreetMap's search: a plain link, no map on the page. */
export const mapHref = (address: string) =>
  `https://www.openstreetmap.org/search?query=${encodeURIComponent(address.replace(/\s*\n\s*/g, ', '))}`

/** The editor's fields filled from the words: the names page-form.server.ts reads back. */
export function formValuesOf(words: PageWords): Record<string, string> {
  const values: Record<string, string> = {
    welcome: words.welcome,
    intro: words.intro,
    story: words.story,
    ...words.findUs,
  }
  words.cards.forEach((card, index) => {
    values[`card-${index}-title`] = card.title
    values[`card-${index}-text`] = card.text
  })
  words.hours.week.forEach((span, day) => {
    values[`opens-${day}`] = span?.opens ?? ''
    values[`closes-${day}`] = span?.closes ?? ''
  })
  words.hours.exceptions.forEach((exception, row) => {
    values[`exception-from-${row}`] = exception.from
    values[`exception-to-${row}`] = exception.to === exception.from ? '' : exception.to
    values[`exception-opens-${row}`] = exception.hours?.opens ?? ''
    values[`exception-closes-${row}`] = exception.hours?.closes ?? ''
    values[`exception-note-${row}`] = exception.note
  })
  return values
}
