import type { OrderLineRead, PickUpWhen } from '#app/analysis/analysis'
import { wallClock } from '#app/clock/farm-clock'
import { longMonths } from '#app/clock/dates'
import { farmCurrency, priceTyped } from '#app/this-week/week'

// How an order is said, on the card, in its mails and on the visitor's page: one set of words.

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const
const dayMs = 24 * 60 * 60 * 1000

/** A unit as the list or an order writes it, reduced to one word: 'a dozen', 'dozens' and 'per dozen' are 'dozen'. */
export function plainUnit(unit: string): string {
  const word = unit
    .trim()
    .toLowerCase()
    .replace(/^(a|an|per|one|1|each)\s+/, '')
    .replace(/\.$/, '')
  if (word === 'each' || word === 'piece' || word === 'pieces') return ''
  if (/(x|ch|sh)es$/.test(word)) return word.slice(0, -2)
  return /[^s]s$/.test(word) && word.length > 3 ? word.slice(0, -1) : word
}

/** A quantity as people write it: 2, 1.5, 0.5. */
export const numberWords = (quantity: number) => String(Math.round(quantity * 1000) / 1000)

/** 'jars' for 2, 'jar' for 1; units said the same however many stay ('2 dozen', '1.5 kg'). */
export function unitPlural(unit: string, quantity: number): string {
  if (quantity === 1 || unit === 'kg' || unit === 'g' || unit === 'dozen') return unit
  return /(x|ch|sh|s)$/.test(unit) ? `${unit}es` : `${unit}s`
}

/** '2 dozen eggs', '3 jars of honey', '6 eggs', '1.5 kg of potatoes'. */
export function lineWords({ product, quantity, unit }: Pick<OrderLineRead, 'product' | 'quantity' | 'unit'>): string {
  const plain = plainUnit(unit)
  if (plain === '') return `${numberWords(quantity)} ${product}`
  if (plain === 'dozen') return `${numberWords(quantity)} dozen ${product}`
  return `${numberWords(quantity)} ${unitPlural(plain, quantity)} of ${product}`
}

/** A price in the farm's currency as this week's list writes it: '€8', '€13.50'. */
export const moneyWords = (cents: number) => `${farmCurrency.sign}${priceTyped(cents)}`

/** A day of the farm's calendar ('YYYY-MM-DD') as a letter says it: 'Saturday 5 December'. */
export function dayWords(date: string): string {
  const day = new Date(`${date}T00:00:00Z`)
  return `${weekdays[day.getUTCDay()]} ${day.getUTCDate()} ${longMonths[day.getUTCMonth()]}`
}

/** '9:00' from '09:00'. */
const shortTime = (time: string) => time.replace(/^0(?=\d)/, '')

/** When the order is picked up: 'Saturday 5 December, 9:00–12:00', or the day alone. */
export function pickUpWords({ date, from, to }: Pick<PickUpWhen, 'date' | 'from' | 'to'>): string {
  if (from && to) return `${dayWords(date)}, ${shortTime(from)}–${shortTime(to)}`
  if (from) return `${dayWords(date)}, from ${shortTime(from)}`
  return dayWords(date)
}

/** The order read in one line: '2 dozen eggs · 3 jars of honey · for Saturday 5 December, 9:00–12:00'. */
export function orderInOneLine(lines: OrderLineRead[], when: Pick<PickUpWhen, 'date' | 'from' | 'to'> | null) {
  return [...lines.map(lineWords), when ? `for ${pickUpWords(when)}` : 'no day said'].join(' · ')
}

/** The farm's calendar day ('YYYY-MM-DD') a moment falls on. */
export const farmDate = (ms: number, zone: string) =>
  new Date(wallClock(ms, zone).dayNumber * dayMs).toISOString().slice(0, 10)

/** A moment on the farm's clock, as the order's page says it: 'Friday 4 December at 18:00'. */
export function momentWords(ms: number, zone: string): string {
  const at = wallClock(ms, zone)
  return `${dayWords(farmDate(ms, zone))} at ${String(at.hour).padStart(2, '0')}:${String(at.minute).padStart(2, '0')}`
}
