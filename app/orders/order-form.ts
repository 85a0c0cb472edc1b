import type { OrderLineRead, PickUpWhen } from '#app/analysis/analysis'
import { plainUnit } from './order-words'

/** What one order may hold: a card's form, bounded. */
export const orderLimits = { lines: 20, quantity: 1_000, unit: 30 } as const

/** An order as the team changed it on the card, before it is confirmed. */
export interface OrderAsked {
  lines: OrderLineRead[]
  pickUp: Pick<PickUpWhen, 'date' | 'from' | 'to'>
}

/** The card's order form as sent: each line's fields in order, and the pick-up. */
export interface OrderFields {
  products: string[]
  quantities: string[]
  units: string[]
  date: string
  from: string
  to: string
}

type Read<T> = { ok: true; value: T } | { ok: false; error: string }

const clockTime = /^([01]\d|2[0-3]):[0-5]\d$/
const dayMs = 24 * 60 * 60 * 1000

function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text)
}

function readLine(product: string, quantity: string, unit: string, known: string[]): Read<OrderLineRead | null> {
  const typed = quantity.trim().replace(',', '.')
  // A line left empty (the form's spare line) or set to nothing is not ordered.
  if ((product === '' && typed === '') || /^0+(\.0+)?$/.test(typed)) return { ok: true, value: null }
  if (!known.includes(product)) return { ok: false, error: 'Choose each line’s product from this week’s list.' }
  const amount = Number(typed)
  if (!/^\d{1,4}(\.\d{1,3})?$/.test(typed) || amount > orderLimits.quantity) {
    return { ok: false, error: `A quantity is a number such as 2 or 1.5, at most ${orderLimits.quantity}.` }
  }
  const plain = plainUnit(unit)
  if (plain.length > orderLimits.unit || !/^[\p{L} ]*$/u.test(plain)) {
    return { ok: false, error: 'A unit is a word such as dozen, jar or kg, or nothing for each one.' }
  }
  return { ok: true, value: { product, quantity: amount, unit: plain } }
}

function readPickUp({ date, from, to }: OrderFields, today: string): Read<OrderAsked['pickUp']> {
  if (!isCalendarDay(date)) return { ok: false, error: 'The pick-up day is a day such as 2026-12-05.' }
  const ahead = (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / dayMs
  if (ahead < 0) return { ok: false, error: 'That pick-up day has passed: choose today or a day ahead.' }
  if (ahead > 366) return { ok: false, error: 'A pick-up day is within the year ahead.' }
  if ((from !== '' && !clockTime.test(from)) || (to !== '' && !clockTime.test(to))) {
    return { ok: false, error: 'A pick-up time is written as 09:00.' }
  }
  if (to !== '' && (from === '' || to <= from)) {
    return { ok: false, error: 'The pick-up ends after it starts: give both times, the later one second.' }
  }
  return { ok: true, value: { date, from: from || null, to: to || null } }
}

/** The order as the card's form sent it, checked against the list's products and the farm's today; or what is wrong. */
export function readOrderForm(fields: OrderFields, known: string[], today: string): Read<OrderAsked> {
  const { products, quantities, units } = fields
  if (
    products.length !== quantities.length ||
    products.length !== units.length ||
    products.length > orderLimits.lines + 1
  ) {
    return {
      ok: false,
      error: `An order has at most ${orderLimits.lines} lines, each a product, a quantity and a unit.`,
    }
  }
  const lines: OrderLineRead[] = []
  for (const [index, product] of products.entries()) {
    const line = readLine(product, quantities[index]!, units[index]!, known)
    if (!line.ok) return line
    if (line.value) lines.push(line.value)
  }
  if (lines.length === 0) return { ok: false, error: 'An order has at least one line: to refuse it, decline it.' }
  if (lines.length > orderLimits.lines) return { ok: false, error: `An order has at most ${orderLimits.lines} lines.` }
  const pickUp = readPickUp(fields, today)
  return pickUp.ok ? { ok: true, value: { lines, pickUp: pickUp.value } } : pickUp
}
