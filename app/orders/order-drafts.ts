import type { PickUpWhen } from '#app/analysis/analysis'
import { readPrice } from '#app/this-week/week'
import type { PricedLine } from './order-pricing'
import { lineWords, moneyWords, pickUpWords } from './order-words'

/** Where the order's own link goes in a confirmation; filled in once the order is stored and has its number. */
export const orderLinkPlaceholder = '{order link}'

/** Where the farm is, from its page: shown in the confirmation when the owner wrote it. */
export interface PickUpPlace {
  address: string
  directions: string
}

/** The confirmation the team reads, changes and sends: lines, total, where and when, pay at pick-up, the link. */
export function draftConfirmation({
  name,
  lines,
  totalCents,
  pickUp,
  place,
  farmName,
}: {
  name: string
  lines: PricedLine[]
  totalCents: number | null
  pickUp: Pick<PickUpWhen, 'date' | 'from' | 'to'>
  place: PickUpPlace
  farmName: string
}): string {
  const listed = lines.map(
    (line) => `- ${lineWords(line)}${line.priceCents === null ? '' : `: ${moneyWords(line.priceCents)}`}`,
  )
  const total =
    totalCents === null
      ? 'To pay at pick-up, as priced on the day.'
      : `Total: ${moneyWords(totalCents)}, to pay at pick-up.`
  const where = [place.address, place.directions].filter(Boolean).join('\n')
  return [
    `Hello ${name},`,
    `Thank you for your order: it is put aside for you.`,
    [...listed, total].join('\n'),
    `Pick-up: ${pickUpWords(pickUp)}${where ? `\n${where}` : ''}`,
    `To see your order, or to cancel it: ${orderLinkPlaceholder}`,
    `See you at the farm,\n${farmName}`,
  ].join('\n\n')
}

/** The total a confirmation's words tell the visitor ('Total: €8'), in cents; undefined when they tell none. */
export function totalTold(text: string): number | undefined {
  const told = /Total: (\S+?),? /.exec(`${text} `)
  return told ? (readPrice(told[1]!) ?? undefined) : undefined
}

/** Why the team declines an order, as they pick it. */
export const declineReasons = {
  'sold-out': 'Sold out',
  'not-that-day': 'Not on that day',
  other: 'Another reason',
} as const
export type DeclineReason = keyof typeof declineReasons

const productList = (products: string[]) =>
  products.length <= 1 ? (products[0] ?? '') : `${products.slice(0, -1).join(', ')} and ${products.at(-1)}`

/**
 * The words of a declined order, for the team to change: why, and for what is sold out the link
 * to be told when it is ready (when the farm takes those asks).
 */
export function draftDecline({
  name,
  reason,
  soldOut,
  pickUp,
  farmName,
  tellMeUrl,
}: {
  name: string
  reason: DeclineReason
  /** The products of the order that are sold out or not for sale this week. */
  soldOut: string[]
  pickUp: Pick<PickUpWhen, 'date' | 'from' | 'to'> | null
  farmName: string
  /** The page to ask to be told when a product is ready; null when the farm takes no such asks. */
  tellMeUrl: ((product: string) => string) | null
}): string {
  const why =
    reason === 'sold-out' && soldOut.length > 0
      ? `we are sorry: ${productList(soldOut)} ${soldOut.length === 1 && !soldOut[0]!.endsWith('s') ? 'is' : 'are'} sold out this week, so we cannot take your order.`
      : reason === 'not-that-day' && pickUp
        ? `we are sorry: we cannot have your order ready for ${pickUpWords(pickUp)}.`
        : 'we are sorry: we cannot take your order this time.'
  const tell =
    reason === 'sold-out' && tellMeUrl
      ? soldOut.map(
          (product) =>
            `To be told when ${product} ${product.endsWith('s') ? 'are' : 'is'} ready: ${tellMeUrl(product)}`,
        )
      : []
  return [`Hello ${name},`, `Thank you for your order; ${why}`, ...tell, `With our best wishes,\n${farmName}`]
    .filter(Boolean)
    .join('\n\n')
}
