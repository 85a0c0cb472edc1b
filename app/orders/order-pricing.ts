import type { OrderLineRead } from '#app/analysis/analysis'
import { isForSale, stockSlack, type WeekProduct } from '#app/this-week/week'
import { numberWords, plainUnit, unitPlural } from './order-words'

/** A product of this week's list as an order is priced from it: its week, and how many are left. */
export type ListedProduct = WeekProduct

/** Why a line cannot be had as asked, in the words the card says it; null when it can. */
export type LineProblem = 'not-on-list' | 'sold-out' | 'not-for-sale' | 'not-enough' | null

/** One line of an order read or changed, priced from this week's list. */
export interface PricedLine extends OrderLineRead {
  /** How much of the list's unit it is (6 eggs at 'a dozen' is 0.5); null when the units do not match. */
  inListUnits: number | null
  /** Null: the list has no price for it, or not in this unit. */
  priceCents: number | null
  problem: LineProblem
  /** What the card says beside it when it is not simply priced: 'sold out', 'no price: the list sells it by the jar'. */
  note: string
}

/** How many of the list's unit one of the order's is, as a fraction: [times, per]. */
const sameAs: Record<string, Record<string, [number, number]>> = {
  '': { dozen: [1, 12] },
  dozen: { '': [12, 1] },
  g: { kg: [1, 1000] },
  kg: { g: [1000, 1] },
}

const ratio = (orderUnit: string, listUnit: string): [number, number] | null => {
  const from = plainUnit(orderUnit)
  const to = plainUnit(listUnit)
  return from === to ? [1, 1] : (sameAs[from]?.[to] ?? null)
}

/** How many of the list's unit a quantity in the order's unit is; null when one cannot be counted in the other. */
export function inUnitsOf(quantity: number, orderUnit: string, listUnit: string): number | null {
  const factor = ratio(orderUnit, listUnit)
  return factor === null ? null : (quantity * factor[0]) / factor[1]
}

/**
 * A line's price in whole cents, half a cent up, counted in integers: a quantity has at most three
 * decimals, so in thousandths it is whole, and 1.005 kg at €1 is €1.01, not the €1.00 of 100 × 1.005.
 */
function lineCents(priceCents: number, quantity: number, orderUnit: string, listUnit: string): number | null {
  const factor = ratio(orderUnit, listUnit)
  if (factor === null) return null
  const cents = priceCents * Math.round(quantity * 1000) * factor[0]
  const per = 1000 * factor[1]
  return Math.floor((2 * cents + per) / (2 * per))
}

/** Whether `amount` can be taken from what is left. */
export const enoughLeft = (stock: number, amount: number) => amount <= stock + stockSlack

/** One line priced from the list (`listed` undefined: the product is not on it). */
export function priceLine(line: OrderLineRead, listed: ListedProduct | undefined): PricedLine {
  if (!listed) return { ...line, inListUnits: null, priceCents: null, problem: 'not-on-list', note: 'not on the list' }
  const inListUnits = inUnitsOf(line.quantity, line.unit, listed.unit)
  const priceCents =
    listed.priceCents === null ? null : lineCents(listed.priceCents, line.quantity, line.unit, listed.unit)
  const priced = { ...line, inListUnits, priceCents }
  if (listed.availability === 'sold-out' || listed.stock === 0)
    return { ...priced, problem: 'sold-out', note: 'sold out' }
  if (!isForSale(listed.availability)) return { ...priced, problem: 'not-for-sale', note: 'not for sale this week' }
  if (listed.stock !== null && inListUnits !== null && !enoughLeft(listed.stock, inListUnits)) {
    return { ...priced, problem: 'not-enough', note: `only ${amountWords(listed.stock, listed.unit)} left` }
  }
  if (priceCents === null) {
    const by = plainUnit(listed.unit)
    return {
      ...priced,
      problem: null,
      note: listed.priceCents === null ? 'no price on the list' : `no price: the list sells it by the ${by || 'piece'}`,
    }
  }
  return { ...priced, problem: null, note: '' }
}

/** The lines priced, and their total (null when a line has no price). */
export function priceOrder(lines: OrderLineRead[], list: ListedProduct[]) {
  const priced = lines.map((line) =>
    priceLine(
      line,
      list.find((item) => item.product === line.product),
    ),
  )
  const totalCents = priced.every((line) => line.priceCents !== null)
    ? priced.reduce((sum, line) => sum + line.priceCents!, 0)
    : null
  return { lines: priced, totalCents }
}

/** '3 dozen' or '2 jars', as what is left is said. */
const amountWords = (quantity: number, listUnit: string) => {
  const unit = plainUnit(listUnit)
  return unit ? `${numberWords(quantity)} ${unitPlural(unit, quantity)}` : numberWords(quantity)
}
