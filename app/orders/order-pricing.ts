import type { OrderLineRead } from '#app/analysis/analysis'
import { isForSale, type WeekProduct } from '#app/this-week/week'
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

const sameAs: Record<string, Record<string, number>> = {
  // How many of the list's unit one of the order's is.
  '': { dozen: 1 / 12 },
  dozen: { '': 12 },
  g: { kg: 1 / 1000 },
  kg: { g: 1000 },
}

/** How many of the list's unit a quantity in the order's unit is; null when one cannot be counted in the other. */
export function inUnitsOf(quantity: number, orderUnit: string, listUnit: string): number | null {
  const from = plainUnit(orderUnit)
  const to = plainUnit(listUnit)
  if (from === to) return quantity
  const factor = sameAs[from]?.[to]
  return factor === undefined ? null : quantity * factor
}

/** One line priced from the list (`listed` undefined: the product is not on it). */
export function priceLine(line: OrderLineRead, listed: ListedProduct | undefined): PricedLine {
  if (!listed) return { ...line, inListUnits: null, priceCents: null, problem: 'not-on-list', note: 'not on the list' }
  const inListUnits = inUnitsOf(line.quantity, line.unit, listed.unit)
  const priceCents =
    inListUnits === null || listed.priceCents === null ? null : Math.round(listed.priceCents * inListUnits)
  const priced = { ...line, inListUnits, priceCents }
  if (listed.availability === 'sold-out' || listed.stock === 0)
    return { ...priced, problem: 'sold-out', note: 'sold out' }
  if (!isForSale(listed.availability)) return { ...priced, problem: 'not-for-sale', note: 'not for sale this week' }
  if (listed.stock !== null && inListUnits !== null && inListUnits > listed.stock) {
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
