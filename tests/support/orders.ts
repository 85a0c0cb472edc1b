import { openDatabase } from '#app/data/database.server'
import { orderLines, orders, submissions } from '#app/data/schema'
import type { OrderStatus } from '#app/data/enums'
import { recordOrderEvent } from '#app/orders/order-events.server'
import { migrationsFolder } from './database'

export interface PlacedOrder {
  name: string
  email?: string
  date: string
  from?: string | null
  to?: string | null
  lines: Array<{ product: string; quantity: number; unit?: string; priceCents?: number | null }>
  status?: OrderStatus
}

/**
 * Orders as the team's Confirm stores them, written straight into a site's database file: a lead,
 * its order and lines, and the `order.confirmed` event (with the webhook post it owes). The ids,
 * in the order given.
 */
export function placeOrders(databasePath: string, placed: PlacedOrder[], at = new Date()): number[] {
  const { db, sqlite, close } = openDatabase(databasePath, migrationsFolder)
  // A running site may hold the lock for a moment: wait for it, as its own writes do.
  sqlite.pragma('busy_timeout = 5000')
  try {
    return db.transaction((tx) =>
      placed.map((order) => {
        const email = order.email ?? `${order.name.split(' ')[0]!.toLowerCase()}@example.com`
        const lead = tx
          .insert(submissions)
          .values({ name: order.name, email, message: 'An order, as written.', createdAt: at })
          .returning({ id: submissions.id })
          .get()
        const prices = order.lines.map((line) => line.priceCents ?? null)
        const { id } = tx
          .insert(orders)
          .values({
            submissionId: lead.id,
            status: order.status ?? 'confirmed',
            pickUpDate: order.date,
            pickUpFrom: order.from ?? null,
            pickUpTo: order.to ?? null,
            totalCents: prices.includes(null) ? null : prices.reduce((sum, cents) => sum! + cents!, 0),
            confirmedAt: at,
            changedAt: at,
          })
          .returning({ id: orders.id })
          .get()
        tx.insert(orderLines)
          .values(
            order.lines.map((line, position) => ({
              orderId: id,
              position,
              product: line.product,
              quantity: line.quantity,
              unit: line.unit ?? '',
              priceCents: line.priceCents ?? null,
            })),
          )
          .run()
        recordOrderEvent(tx, { orderId: id, type: 'order.confirmed', at, by: null })
        return id
      }),
    )
  } finally {
    close()
  }
}

/** A day on the calendar, `days` from today in UTC (the test sites' clock): '2026-11-29'. */
export const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
