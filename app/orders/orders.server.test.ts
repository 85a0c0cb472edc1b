import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { createWrites } from '#app/data/writes.server'
import { SubmissionEvents, type SubmissionEvent } from '#app/live/events.server'
import { migrationsFolder, readRows } from '#tests/support/database'
import { placeOrders } from '#tests/support/orders'
import { tempDatabasePath } from '#tests/support/server'
import { createOrders, daysOf } from './orders.server'
import { packingList } from './pick-ups'

let database: OpenDatabase | undefined
afterEach(() => database?.close())

// Saturday 5 December 2026, 08:00 in Auckland (Friday 19:00 UTC).
const saturdayMorning = Date.parse('2026-12-04T19:00:00Z')

function ordersAt(path: string) {
  database = openDatabase(path, migrationsFolder)
  const told: SubmissionEvent[] = []
  const events = new SubmissionEvents()
  events.subscribe((event) => told.push(event))
  let woken = 0
  const orders = createOrders({
    db: database.db,
    writes: createWrites(),
    events,
    owed: () => void woken++,
    timeZone: () => 'Pacific/Auckland',
    cancelOrder: async () => ({ outcome: 'gone' }),
    now: () => saturdayMorning,
  })
  return { orders, told, woken: () => woken }
}

describe('the pick-ups', () => {
  it('cuts today and the next seven days on the farm’s calendar', () => {
    expect(daysOf('today', saturdayMorning, 'Pacific/Auckland')).toEqual({ from: '2026-12-05', to: '2026-12-05' })
    expect(daysOf('today', saturdayMorning, 'UTC')).toEqual({ from: '2026-12-04', to: '2026-12-04' })
    expect(daysOf('week', saturdayMorning, 'Pacific/Auckland')).toEqual({ from: '2026-12-05', to: '2026-12-11' })
  })

  it('lists a day’s orders by pick-up time (any time last), leaving out the cancelled and other days', () => {
    const path = tempDatabasePath()
    placeOrders(path, [
      { name: 'Any Time', date: '2026-12-05', lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }] },
      {
        name: 'Late',
        date: '2026-12-05',
        from: '11:00',
        to: '12:00',
        lines: [{ product: 'honey', quantity: 2, unit: 'jar' }],
      },
      { name: 'Early', date: '2026-12-05', from: '09:00', lines: [{ product: 'eggs', quantity: 2, unit: 'dozen' }] },
      {
        name: 'Gone',
        date: '2026-12-05',
        from: '08:00',
        status: 'cancelled',
        lines: [{ product: 'eggs', quantity: 9, unit: 'dozen' }],
      },
      { name: 'Sunday', date: '2026-12-06', lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }] },
    ])
    const { orders } = ordersAt(path)
    const today = orders.pickUps('2026-12-05', '2026-12-05')
    expect(today.map((order) => order.name)).toEqual(['Early', 'Late', 'Any Time'])
    expect(packingList(today)).toEqual([
      { product: 'eggs', unit: 'dozen', quantity: 3, orders: 2 },
      { product: 'honey', unit: 'jar', quantity: 2, orders: 1 },
    ])
    expect(orders.pickUps('2026-11-30', '2026-12-06').map((order) => order.name)).toEqual([
      'Early',
      'Late',
      'Any Time',
      'Sunday',
    ])
  })

  it('marks an order collected in one transaction with its event and its webhook post, then tells every page', async () => {
    const path = tempDatabasePath()
    const [id] = placeOrders(path, [
      { name: 'Ana', date: '2026-12-05', lines: [{ product: 'eggs', quantity: 2, unit: 'dozen' }] },
    ])
    const { orders, told, woken } = ordersAt(path)
    const marked = await orders.mark(id!, 'collected', null)
    expect(marked).toMatchObject({
      ok: true,
      order: { id, status: 'collected', changedAt: new Date(saturdayMorning).toISOString() },
    })
    expect(told).toEqual([{ type: 'ORDER_CHANGED', order: marked.ok ? marked.order : null }])
    expect(woken()).toBe(1)
    expect(readRows(path, 'SELECT type, at FROM order_events WHERE order_id = ? ORDER BY id', id)).toEqual([
      { type: 'order.confirmed', at: expect.any(Number) },
      { type: 'order.collected', at: saturdayMorning },
    ])
    expect(
      readRows(
        path,
        "SELECT order_event_id AS event, submission_id AS lead FROM deliveries WHERE kind = 'webhook-post' ORDER BY id",
      ),
    ).toEqual([
      { event: 1, lead: 1 },
      { event: 2, lead: 1 },
    ])

    // The same mark again changes nothing and owes nothing; the other one puts a slip right.
    expect(await orders.mark(id!, 'collected', null)).toMatchObject({ ok: true, order: { status: 'collected' } })
    expect(told).toHaveLength(1)
    expect(await orders.mark(id!, 'not-collected', null)).toMatchObject({
      ok: true,
      order: { status: 'not-collected' },
    })
    expect(readRows(path, 'SELECT type FROM order_events ORDER BY id').map((row) => row.type)).toEqual([
      'order.confirmed',
      'order.collected',
      'order.not-collected',
    ])
  })

  it('refuses to mark a cancelled order or one that is not there, changing nothing', async () => {
    const path = tempDatabasePath()
    const [id] = placeOrders(path, [
      {
        name: 'Ana',
        date: '2026-12-05',
        status: 'cancelled',
        lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }],
      },
    ])
    const { orders, told, woken } = ordersAt(path)
    expect(await orders.mark(id!, 'collected', null)).toEqual({ ok: false, why: 'cancelled' })
    expect(await orders.mark(999, 'collected', null)).toEqual({ ok: false, why: 'no such order' })
    expect(readRows(path, 'SELECT status FROM orders')).toEqual([{ status: 'cancelled' }])
    expect(readRows(path, 'SELECT count(*) AS n FROM order_events')).toEqual([{ n: 1 }])
    expect([told, woken()]).toEqual([[], 0])
  })

  it('pages the API’s orders as confirmed, between two days', () => {
    const path = tempDatabasePath()
    const ids = placeOrders(
      path,
      ['2026-12-01', '2026-12-09', '2026-12-02', '2026-12-03'].map((date, n) => ({
        name: `Person ${n}`,
        date,
        lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }],
      })),
    )
    const { orders } = ordersAt(path)
    const first = orders.page({ from: '2026-12-01', to: '2026-12-07', after: 0, limit: 2 })
    expect(first.orders.map((order) => order.id)).toEqual([ids[0], ids[2]])
    expect(first.next).toBe(ids[2])
    const second = orders.page({ from: '2026-12-01', to: '2026-12-07', after: first.next!, limit: 2 })
    expect([second.orders.map((order) => order.id), second.next]).toEqual([[ids[3]], null])
  })
})
