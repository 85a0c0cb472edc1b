import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { orderLines, orders, submissions } from '#app/data/schema'
import { tempDatabasePath } from '#tests/support/server'
import { readOrders } from './order-view.server'

let database: OpenDatabase
afterEach(() => database?.close())

it('shows each order with its lead’s name and lines in their order, in the order asked, leaving out what is gone', () => {
  database = openDatabase(tempDatabasePath(), join(import.meta.dirname, '../../drizzle'))
  const { db } = database
  const at = new Date('2026-11-27T10:00:00Z')
  const lead = db
    .insert(submissions)
    .values({ name: 'Ana', email: 'ana@example.com', message: 'Two dozen eggs and a jar of honey', createdAt: at })
    .returning()
    .get()
  for (const id of [1, 2]) {
    db.insert(orders)
      .values({
        id,
        submissionId: lead.id,
        pickUpDate: '2026-11-28',
        pickUpFrom: '09:00',
        pickUpTo: '12:00',
        totalCents: 1350,
        confirmedAt: at,
        changedAt: at,
      })
      .run()
  }
  db.insert(orderLines)
    .values([
      { orderId: 1, position: 1, product: 'honey', quantity: 1, unit: 'jar', priceCents: 550 },
      { orderId: 1, position: 0, product: 'eggs', quantity: 2, unit: 'dozen', priceCents: 800 },
    ])
    .run()

  const [second, first, ...rest] = readOrders(db, [2, 1, 3])
  expect(rest).toEqual([])
  expect(second).toMatchObject({ id: 2, lines: [] })
  expect(first).toEqual({
    id: 1,
    leadId: lead.id,
    name: 'Ana',
    email: 'ana@example.com',
    status: 'confirmed',
    lines: [
      { product: 'eggs', quantity: 2, unit: 'dozen', priceCents: 800 },
      { product: 'honey', quantity: 1, unit: 'jar', priceCents: 550 },
    ],
    totalCents: 1350,
    pickUp: { date: '2026-11-28', from: '09:00', to: '12:00' },
    confirmedAt: '2026-11-27T10:00:00.000Z',
    changedAt: '2026-11-27T10:00:00.000Z',
  })
})
