import type { OpeningHours } from './opening-hours'

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

/** A card's words with the farm's product in place of `{product}`. */
export const withProduct = (text: string, product: string) => text.replaceAll('{product}', product)

/** The phone as a tel: link takes it: digits and a leading plus only. */
export const telHref = (phone: string) => `tel:${phone.replace(/(?!^\+)[^\d]/g, '')}`

/** The address on OpenStreetMap's search: a plain link, no map on the page. */
export const mapHref = (address: string) =>
  `https://www.openstreetmap.org/search?query=${encodeURIComponent(address.replace(/\s*\n\s*/g, ', '))}`
