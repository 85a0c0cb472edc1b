import type { Order } from '#app/leads/order'
import { lineWords, moneyWords } from './order-words'

/** What the team marks an order on its day: it came, or it did not. */
export const pickUpMarks = ['collected', 'not-collected'] as const
export type PickUpMark = (typeof pickUpMarks)[number]

export const isPickUpMark = (value: unknown): value is PickUpMark =>
  typeof value === 'string' && (pickUpMarks as readonly string[]).includes(value)

/** The pick-ups page's two views: today's orders, or the next seven days' (today and the six after). */
export const pickUpViews = ['today', 'week'] as const
export type PickUpView = (typeof pickUpViews)[number]

export const readPickUpView = (value: string | null): PickUpView => (value === 'week' ? 'week' : 'today')

/** An order's lines in one row: '2 dozen eggs · 3 jars of honey'. */
export const linesWords = (lines: Order['lines']) => lines.map(lineWords).join(' · ')

/** When on its day: '9:00–12:00', 'from 9:00', 'until 12:00', or 'any time'. */
export function pickUpTimeWords({ from, to }: Order['pickUp']): string {
  const short = (time: string) => time.replace(/^0(\d)/, '$1')
  if (from && to) return `${short(from)}–${short(to)}`
  if (from) return `from ${short(from)}`
  if (to) return `until ${short(to)}`
  return 'any time'
}

/** An order's total as the week's list writes prices: '€12.50'; '—' when a line had no price. */
export const totalWords = (cents: number | null) => (cents === null ? '—' : moneyWords(cents))

/** Orders by pick-up: day, then its start (any time last), then as confirmed. */
export function byPickUp(a: Order, b: Order): number {
  return (
    a.pickUp.date.localeCompare(b.pickUp.date) ||
    (a.pickUp.from ?? '99:99').localeCompare(b.pickUp.from ?? '99:99') ||
    a.id - b.id
  )
}

/** One product in one unit, and how much of it the orders hold together. */
export interface PackingLine {
  product: string
  unit: string
  quantity: number
  /** How many orders hold it. */
  orders: number
}

/** What to pack for these orders: each product's total per unit, by product name. */
export function packingList(orders: readonly Order[]): PackingLine[] {
  const totals = new Map<string, PackingLine>()
  for (const order of orders) {
    for (const line of order.lines) {
      const key = `${line.product}\n${line.unit}`
      const held = totals.get(key) ?? { product: line.product, unit: line.unit, quantity: 0, orders: 0 }
      held.quantity += line.quantity
      held.orders += 1
      totals.set(key, held)
    }
  }
  return [...totals.values()].sort((a, b) => a.product.localeCompare(b.product) || a.unit.localeCompare(b.unit))
}

/** How an order stands on its day, in the team's words. */
export const statusWords: Record<Order['status'], string> = {
  confirmed: 'To collect',
  collected: 'Collected',
  'not-collected': 'Not collected',
  cancelled: 'Cancelled',
}

/** Why an order could not be marked, in the team's words. */
export function markRefusal(why: 'no such order' | 'cancelled'): string {
  return why === 'cancelled'
    ? 'This order was cancelled: there is nothing to collect.'
    : 'There is no such order: it may have been deleted with its lead.'
}
