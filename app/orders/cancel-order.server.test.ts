import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { orderLines, orders, submissions, weekList, type SubmissionRow } from '#app/data/schema'
import { SubmissionEvents, type SubmissionEvent } from '#app/live/events.server'
import { tempDatabasePath } from '#tests/support/server'
import { createOrderCancelling } from './cancel-order.server'

let database: OpenDatabase
afterEach(() => database?.close())

/** Ana's order for Saturday 5 December, 9:00–12:00 (cut-off: Friday at 18:00 London time), and the week's stock after it. */
function farmWithOrder(status: 'confirmed' | 'cancelled' | 'collected' = 'confirmed') {
  database = openDatabase(tempDatabasePath(), join(import.meta.dirname, '../../drizzle'))
  const { db } = database
  const at = new Date('2026-11-28T10:00:00Z')
  const lead = db
    .insert(submissions)
    .values({ name: 'Ana', email: 'ana@example.com', message: 'Two dozen eggs and a jar of honey', createdAt: at })
    .returning()
    .get()
  db.update(submissions).set({ status: 'handled' }).run()
  const order = db
    .insert(orders)
    .values({
      submissionId: lead.id,
      status,
      pickUpDate: '2026-12-05',
      pickUpFrom: '09:00',
      pickUpTo: '12:00',
      totalCents: 1350,
      confirmedAt: at,
      changedAt: at,
    })
    .returning()
    .get()
  db.insert(orderLines)
    .values([
      { orderId: order.id, position: 0, product: 'eggs', quantity: 2, unit: 'dozen', stockTaken: 2, priceCents: 800 },
      { orderId: order.id, position: 1, product: 'honey', quantity: 1, unit: 'jar', stockTaken: null, priceCents: 550 },
    ])
    .run()
  db.insert(weekList)
    .values([
      { product: 'eggs', availability: 'sold-out', priceCents: 400, unit: 'a dozen', stock: 0, changedAt: at },
      { product: 'honey', availability: 'available', priceCents: 550, unit: 'a jar', stock: null, changedAt: at },
    ])
    .run()
  return { orderId: order.id, leadId: lead.id }
}

function cancelling(now: string) {
  const events = new SubmissionEvents()
  const published: SubmissionEvent[] = []
  events.subscribe((event) => published.push(event))
  const told: Array<{ lead: SubmissionRow; answerId: number }> = []
  let owed = 0
  const cancelOrder = createOrderCancelling({
    db: database.db,
    writes: database.writes,
    events,
    teamTold: [{ queueAnswer: (lead, answerId) => told.push({ lead, answerId }) }],
    owed: () => (owed += 1),
    from: () => 'farm@bramble.example',
    cut: () => ({ hoursBefore: 6, timeZone: 'Europe/London' }),
    now: () => new Date(now),
  })
  return { cancelOrder, published, told, owed: () => owed }
}

const sqlite = () => database.sqlite
const stock = () => sqlite().prepare('SELECT product, stock FROM week_list ORDER BY product').all()

it('cancels a visitor’s order before the cut-off: status, stock back, its event, a note in the thread, the team told', async () => {
  const { orderId, leadId } = farmWithOrder()
  const { cancelOrder, published, told, owed } = cancelling('2026-12-04T17:59:59Z')
  const cancelled = await cancelOrder(orderId, null)
  expect(cancelled).toMatchObject({ outcome: 'cancelled', order: { id: orderId, status: 'cancelled' } })
  expect(sqlite().prepare('SELECT status, changed_at, changed_by FROM orders').get()).toEqual({
    status: 'cancelled',
    changed_at: Date.parse('2026-12-04T17:59:59Z'),
    changed_by: null,
  })
  expect(stock()).toEqual([
    { product: 'eggs', stock: 2 },
    { product: 'honey', stock: null },
  ])
  expect(sqlite().prepare('SELECT order_id, type, by FROM order_events').all()).toEqual([
    { order_id: orderId, type: 'order.cancelled', by: null },
  ])
  const note = sqlite().prepare('SELECT id, kind, text FROM replies').get() as {
    id: number
    kind: string
    text: string
  }
  expect(note).toMatchObject({
    kind: 'answer',
    text: 'Cancelled this order by its link: 2 dozen eggs · 1 jar of honey, for Saturday 5 December, 9:00–12:00. What it took is back on this week’s list.',
  })
  expect(told).toEqual([{ lead: expect.objectContaining({ id: leadId }), answerId: note.id }])
  expect(sqlite().prepare('SELECT status FROM submissions').pluck().get()).toBe('new')
  expect(owed()).toBe(1)
  expect(published.map((event) => event.type)).toEqual(['ORDER_CHANGED', 'SUBMISSION_UPDATED'])
})

it('refuses at the cut-off and after, changing nothing', async () => {
  const { orderId } = farmWithOrder()
  const { cancelOrder, published, told } = cancelling('2026-12-04T18:00:00Z')
  expect(await cancelOrder(orderId, null)).toEqual({ outcome: 'too late', until: Date.parse('2026-12-04T18:00:00Z') })
  expect(sqlite().prepare('SELECT status FROM orders').pluck().get()).toBe('confirmed')
  expect(stock()).toContainEqual({ product: 'eggs', stock: 0 })
  expect(sqlite().prepare('SELECT count(*) FROM order_events').pluck().get()).toBe(0)
  expect(sqlite().prepare('SELECT count(*) FROM replies').pluck().get()).toBe(0)
  expect([published, told]).toEqual([[], []])
})

it('lets a person of the team cancel after the visitor’s cut-off (a late phone call)', async () => {
  const { orderId } = farmWithOrder()
  const { cancelOrder } = cancelling('2026-12-05T08:30:00Z')
  expect(await cancelOrder(orderId, null)).toMatchObject({ outcome: 'too late' })
  expect(await cancelOrder(orderId, 1)).toMatchObject({ outcome: 'cancelled', order: { status: 'cancelled' } })
  expect(stock()).toContainEqual({ product: 'eggs', stock: 2 })
})

it('refuses an order already cancelled or collected, and one that is gone', async () => {
  for (const status of ['cancelled', 'collected'] as const) {
    const { orderId } = farmWithOrder(status)
    const { cancelOrder } = cancelling('2026-11-30T12:00:00Z')
    expect(await cancelOrder(orderId, null)).toEqual({ outcome: 'not confirmed', status })
    expect(stock()).toContainEqual({ product: 'eggs', stock: 0 })
    database.close()
  }
  farmWithOrder()
  expect(await cancelling('2026-11-30T12:00:00Z').cancelOrder(99, null)).toEqual({ outcome: 'gone' })
})

it('cancelled twice at once, puts the stock back once', async () => {
  const { orderId } = farmWithOrder()
  const { cancelOrder } = cancelling('2026-11-30T12:00:00Z')
  const outcomes = await Promise.all([cancelOrder(orderId, null), cancelOrder(orderId, null)])
  expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['cancelled', 'not confirmed'])
  expect(stock()).toContainEqual({ product: 'eggs', stock: 2 })
  expect(sqlite().prepare('SELECT count(*) FROM order_events').pluck().get()).toBe(1)
})

it('cancelled by a person of the team: their name on it, no note in the thread and no one mailed', async () => {
  const { orderId } = farmWithOrder()
  const { cancelOrder, told, published } = cancelling('2026-11-30T12:00:00Z')
  expect(await cancelOrder(orderId, 1)).toMatchObject({ outcome: 'cancelled' })
  expect(sqlite().prepare('SELECT changed_by FROM orders').pluck().get()).toBe(1)
  expect(sqlite().prepare('SELECT by FROM order_events').pluck().get()).toBe(1)
  expect(sqlite().prepare('SELECT count(*) FROM replies').pluck().get()).toBe(0)
  expect(told).toEqual([])
  expect(published.map((event) => event.type)).toEqual(['ORDER_CHANGED'])
})
