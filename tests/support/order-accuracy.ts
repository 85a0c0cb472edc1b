// How well the order reader reads the labelled order messages: the unit test holds the floors,
// npm run bench:analysis prints the same figures and the worst cases.
import type { OrderRead } from '#app/analysis/analysis'
import { createOrderReader } from '#app/analysis/order-reading'
import { defaultFarmProducts, readProductList } from '#app/analysis/products'
import { orderFarmHours, orderMessages, orderSentAt, type OrderMessage } from '#tests/fixtures/order-messages'

/** What the issue asks of the reader (issue 49). */
export const orderFloors = { lines: 0.9, day: 0.9, noOrder: 0.95 } as const

export interface Miss {
  message: string
  want: string
  got: string
  /** How bad: an order read from a non-order, or none read from an order, is worst. */
  weight: number
}

export interface OrderAccuracy {
  orders: number
  /** Orders whose lines were read exactly (product, quantity and unit), in any order. */
  lines: number
  namingADay: number
  day: number
  namingHours: number
  hours: number
  nonOrders: number
  /** Non-orders read as no order. */
  noOrder: number
  misses: Miss[]
}

const lineWords = (lines: OrderRead['lines']) =>
  lines
    .map(({ product, quantity, unit }) => `${quantity}${unit ? ` ${unit}` : ''} ${product}`)
    .sort()
    .join(', ')

const whenWords = (when: OrderRead['when'] | undefined) =>
  when ? `${when.date}${when.from || when.to ? ` ${when.from ?? ''}–${when.to ?? ''}` : ''}` : 'no day'

const readingWords = (order: OrderRead | null) =>
  order ? `[${lineWords(order.lines)}] ${whenWords(order.when)}` : 'no order'

const wantWords = ({ order }: OrderMessage) =>
  order
    ? `[${lineWords(order.lines)}] ${order.date ?? 'no day'}${order.hours ? ` ${order.hours[0] ?? ''}–${order.hours[1] ?? ''}` : ''}`
    : 'no order'

function missOf(labelled: OrderMessage, got: OrderRead | null): Miss | null {
  const want = labelled.order
  if (!want) return got ? { weight: 3, message: labelled.message, want: 'no order', got: readingWords(got) } : null
  if (!got) return { weight: 3, message: labelled.message, want: wantWords(labelled), got: 'no order' }
  const linesWrong = lineWords(got.lines) !== lineWords(want.lines)
  const dayWrong = want.date !== null && got.when?.date !== want.date
  const [from, to] = want.hours ?? [undefined, undefined]
  const hoursWrong = want.hours !== undefined && (got.when?.from !== from || got.when?.to !== to)
  const weight = (linesWrong ? 2 : 0) + (dayWrong ? 1 : 0) + (hoursWrong ? 0.5 : 0)
  return weight === 0 ? null : { weight, message: labelled.message, want: wantWords(labelled), got: readingWords(got) }
}

export function orderAccuracy(messages: OrderMessage[] = orderMessages): OrderAccuracy {
  const read = createOrderReader(readProductList(defaultFarmProducts))
  const readings = messages.map((labelled) => ({ labelled, got: read(labelled.message, orderSentAt, orderFarmHours) }))
  const orders = readings.filter(({ labelled }) => labelled.order)
  const naming = orders.filter(({ labelled }) => labelled.order?.date)
  const withHours = orders.filter(({ labelled }) => labelled.order?.hours)
  const nonOrders = readings.filter(({ labelled }) => !labelled.order)
  return {
    orders: orders.length,
    lines: orders.filter(({ labelled, got }) => got && lineWords(got.lines) === lineWords(labelled.order!.lines))
      .length,
    namingADay: naming.length,
    day: naming.filter(({ labelled, got }) => got?.when?.date === labelled.order?.date).length,
    namingHours: withHours.length,
    hours: withHours.filter(
      ({ labelled, got }) =>
        got?.when?.from === labelled.order?.hours?.[0] && got?.when?.to === labelled.order?.hours?.[1],
    ).length,
    nonOrders: nonOrders.length,
    noOrder: nonOrders.filter(({ got }) => got === null).length,
    misses: readings.flatMap(({ labelled, got }) => missOf(labelled, got) ?? []).sort((a, b) => b.weight - a.weight),
  }
}

const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`

/** The figures as the bench and the test print them, with the worst cases. */
export function orderAccuracyRows(accuracy: OrderAccuracy, { label = 'order reading', worst = 10 } = {}): string[] {
  const { orders, lines, namingADay, day, namingHours, hours, nonOrders, noOrder, misses } = accuracy
  const met = (part: number, whole: number, floor: number) => (part / whole >= floor ? 'met' : 'NOT met')
  return [
    `${label}, ${orders + nonOrders} messages (${orders} orders, ${nonOrders} not orders):`,
    `  order lines exactly right   ${percent(lines, orders)} (${lines}/${orders}); floor ${orderFloors.lines * 100} % — ${met(lines, orders, orderFloors.lines)}`,
    `  day right                   ${percent(day, namingADay)} (${day}/${namingADay} naming one); floor ${orderFloors.day * 100} % — ${met(day, namingADay, orderFloors.day)}`,
    `  pick-up hours right         ${percent(hours, namingHours)} (${hours}/${namingHours} giving a time or part of the day)`,
    `  no order from non-orders    ${percent(noOrder, nonOrders)} (${noOrder}/${nonOrders}); floor ${orderFloors.noOrder * 100} % — ${met(noOrder, nonOrders, orderFloors.noOrder)}`,
    `  worst cases (${Math.min(worst, misses.length)} of ${misses.length} misses):`,
    ...misses
      .slice(0, worst)
      .map(
        ({ message, want, got }) =>
          `    ${JSON.stringify(message.slice(0, 90))}\n      want ${want}\n      got  ${got}`,
      ),
  ]
}
