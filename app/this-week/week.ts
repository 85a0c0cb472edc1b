import type { Offer } from 'schema-dts'
import { availabilities, type Availability } from '#app/data/enums'

/** One product of this week's list, as the home page and the editor show it. */
export interface WeekProduct {
  product: string
  availability: Availability
  /** Coming soon: the first day of the week it should be ready (YYYY-MM-DD, the farm's calendar). */
  readyFrom: string | null
  priceCents: number | null
  unit: string
  note: string
  /** How many are left, counted in `unit`; null when the farm does not count. Confirmed orders take from it. */
  stock: number | null
}

/** A proposal on the updates page: a product for sale now, whom it would tell, and the drafted words. */
export interface ReadyNews {
  product: string
  waiting: number
  askedAbout: number
  subject: string
  text: string
}

/** The farm's currency; one farm, one currency, until a farm abroad asks (decision 041). */
export const farmCurrency = { code: 'EUR', sign: '€' } as const

export const weekLimits = { unit: 30, note: 140, priceCents: 1_000_000, stock: 1_000_000 } as const

export const availabilityWords: Record<Availability, string> = {
  available: 'Available now',
  'few-left': 'Few left',
  'coming-soon': 'Coming soon',
  'sold-out': 'Sold out',
  'out-of-season': 'Out of season',
}

/** Beside these a visitor may ask to be told when the product is ready. */
export const mayAskToBeTold = (availability: Availability) =>
  availability === 'coming-soon' || availability === 'sold-out' || availability === 'out-of-season'

export const isForSale = (availability: Availability) => availability === 'available' || availability === 'few-left'

/** '4', '4.50', '4,5' or '€4' in, cents out; null when empty, undefined when not a price. */
export function readPrice(typed: string): number | null | undefined {
  const plain = typed.trim().replace(farmCurrency.sign, '').trim()
  if (plain === '') return null
  const parts = /^(\d{1,5})(?:[.,](\d{1,2}))?$/.exec(plain)
  if (!parts) return undefined
  return Number(parts[1]) * 100 + Number((parts[2] ?? '0').padEnd(2, '0'))
}

/** '12', '2.5' or '2,5' left in; null when empty (not counted), undefined when not a count. */
export function readStock(typed: string): number | null | undefined {
  const plain = typed.trim().replace(',', '.')
  if (plain === '') return null
  if (!/^\d{1,7}(?:\.\d{1,3})?$/.test(plain)) return undefined
  const stock = Number(plain)
  return stock <= weekLimits.stock ? stock : undefined
}

/** Cents as the owner typed them back: '4' or '4.50'. */
export const priceTyped = (cents: number | null) =>
  cents === null ? '' : cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2)

/** '€4 a dozen', or '' without a price. */
export const priceWords = ({ priceCents, unit }: Pick<WeekProduct, 'priceCents' | 'unit'>) =>
  priceCents === null ? '' : `${farmCurrency.sign}${priceTyped(priceCents)}${unit ? ` ${unit}` : ''}`

/**
 * What is left is kept in the list's unit, and a third of a dozen has no end of decimals: amounts
 * within half a thousandth are the same, and what is left within it is none.
 */
export const stockSlack = 0.0005

/** What is left as the owner types it, to three decimals (orders by the egg leave thirds of a dozen); '' when not counted. */
export const stockTyped = (stock: number | null) => (stock === null ? '' : String(Math.round(stock * 1000) / 1000))

/** '12 left' (in the list's unit, as the owner counts), or '' when not counted. */
export const stockWords = ({ stock }: Pick<WeekProduct, 'stock'>) => (stock === null ? '' : `${stockTyped(stock)} left`)

/** A product and its verb, as the farm says it: 'strawberries are', 'honey is' (FARM_PRODUCTS' names are mostly plurals). */
export const productIs = (product: string) => `${product} ${product.endsWith('s') ? 'are' : 'is'}`

/** A product's name as a sentence starts it: 'Strawberries'. */
export const capitalised = (name: string) => name.charAt(0).toUpperCase() + name.slice(1)

/** What the owner sent for one product, checked; or the first thing wrong, in the owner's words. */
export function readWeekEdit(
  fields: Record<string, string>,
): { ok: true; edit: Omit<WeekProduct, 'product'> } | { ok: false; error: string } {
  const availability = availabilities.find((known) => known === fields.availability)
  if (!availability) return { ok: false, error: 'Choose how it is for sale this week.' }
  const priceCents = readPrice(fields.price ?? '')
  if (priceCents === undefined || (priceCents ?? 0) > weekLimits.priceCents)
    return { ok: false, error: 'A price is a number such as 4 or 4.50.' }
  const stock = readStock(fields.stock ?? '')
  if (stock === undefined)
    return { ok: false, error: 'What is left is a number such as 12 or 2.5, or empty when you do not count it.' }
  const unit = (fields.unit ?? '').trim()
  if (unit.length > weekLimits.unit)
    return { ok: false, error: `What the price buys fits in ${weekLimits.unit} characters.` }
  const note = (fields.note ?? '').trim()
  if (note.length > weekLimits.note) return { ok: false, error: `A note fits in ${weekLimits.note} characters.` }
  if (/[\p{Cc}]/u.test(unit + note)) return { ok: false, error: 'A note is one line of words.' }
  const readyFrom = (fields.readyFrom ?? '').trim()
  if (readyFrom !== '' && !isCalendarDay(readyFrom))
    return { ok: false, error: 'The week it is ready is a day such as 2027-06-07.' }
  return {
    ok: true,
    edit: {
      availability,
      priceCents,
      unit,
      note,
      readyFrom: availability === 'coming-soon' && readyFrom ? readyFrom : null,
      stock,
    },
  }
}

function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text)
}

/** The words of the update proposed when a product is ready: 'Strawberries are ready: €5 a punnet.' */
export function draftNews(item: WeekProduct, farmName: string): { subject: string; text: string } {
  const price = priceWords(item)
  const subject = `${capitalised(productIs(item.product))} ready at ${farmName}`
  const first = `${capitalised(productIs(item.product))} ready${price ? `: ${price}` : ''}.`
  const text = [first, item.note, 'You asked us to tell you. See you at the farm,', farmName]
    .filter(Boolean)
    .join('\n\n')
  return { subject, text }
}

/**
 * The schema.org Offers (`makesOffer`) of what is for sale now, with a price: for the page's
 * JSON-LD, which app/ of the page's words joins them to.
 */
export function weekOffers(list: WeekProduct[], siteUrl: string): Offer[] {
  return list
    .filter((item) => isForSale(item.availability) && item.priceCents !== null)
    .map((item) => ({
      '@type': 'Offer' as const,
      itemOffered: { '@type': 'Product' as const, name: capitalised(item.product) },
      price: (item.priceCents! / 100).toFixed(2),
      priceCurrency: farmCurrency.code,
      availability:
        item.availability === 'few-left' ? 'https://schema.org/LimitedAvailability' : 'https://schema.org/InStock',
      ...(item.unit
        ? {
            priceSpecification: {
              '@type': 'UnitPriceSpecification' as const,
              price: (item.priceCents! / 100).toFixed(2),
              priceCurrency: farmCurrency.code,
              unitText: item.unit,
            },
          }
        : {}),
      ...(item.note ? { description: item.note } : {}),
      ...(siteUrl ? { url: `${siteUrl}/#this-week` } : {}),
    }))
}
