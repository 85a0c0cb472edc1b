import { wallClock } from '#app/clock/farm-clock'
import { longMonths } from '#app/clock/dates'
import type { OrderLineRead } from '#app/analysis/analysis'
import type { Order } from '#app/leads/order'
import { farmCurrency, priceTyped } from '#app/this-week/week'

const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
const dayMs = 24 * 60 * 60 * 1000

// Units said the same however many: '2 dozen', '1.5 kg'.
const unchanging = new Set(['dozen', 'kg', 'g', 'lb', 'l'])

function plural(unit: string, quantity: number): string {
  if (quantity === 1 || unchanging.has(unit)) return unit
  return /(s|x|z|ch|sh)$/.test(unit) ? `${unit}es` : `${unit}s`
}

/** One line as a person says it: '2 dozen eggs', '3 jars of honey', '6 eggs', '1.5 kg of potatoes'. */
export function lineWords({ product, quantity, unit }: Pick<OrderLineRead, 'product' | 'quantity' | 'unit'>): string {
  if (!unit) return `${quantity} ${product}`
  return unit === 'dozen' ? `${quantity} dozen ${product}` : `${quantity} ${plural(unit, quantity)} of ${product}`
}

/** A price in the farm's currency: '€13.50'. */
export const moneyWords = (cents: number) => `${farmCurrency.sign}${priceTyped(cents)}`

/** The day of a 'YYYY-MM-DD' on the farm's calendar, as a letter says it: 'Saturday 5 December 2026'. */
export function dayWords(date: string): string {
  const at = new Date(`${date}T00:00:00Z`)
  return `${weekdays[(at.getUTCDay() + 6) % 7]} ${at.getUTCDate()} ${longMonths[at.getUTCMonth()]} ${at.getUTCFullYear()}`
}

/** When the order is picked up: 'Saturday 5 December 2026, 9:00–12:00', or the day alone. */
export function pickUpWords({ date, from, to }: Order['pickUp']): string {
  const hour = (time: string) => time.replace(/^0(\d)/, '$1')
  const time = from && to ? `, ${hour(from)}–${hour(to)}` : from ? `, from ${hour(from)}` : ''
  return `${dayWords(date)}${time}`
}

/** The farm's calendar day ('YYYY-MM-DD') a moment falls on. */
export const farmDate = (ms: number, zone: string) =>
  new Date(wallClock(ms, zone).dayNumber * dayMs).toISOString().slice(0, 10)

/** A moment on the farm's clock, as the order's page says it: 'Friday 4 December 2026 at 18:00'. */
export function momentWords(ms: number, zone: string): string {
  const at = wallClock(ms, zone)
  return `${dayWords(farmDate(ms, zone))} at ${String(at.hour).padStart(2, '0')}:${String(at.minute).padStart(2, '0')}`
}
