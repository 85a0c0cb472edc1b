import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { OrderEventType } from '#app/data/enums'
import { orderEvents, orders } from '#app/data/schema'
import { owe } from '#app/delivery/record.server'

/**
 * Inside the transaction that changes an order: what happened is kept in its history, and
 * whatever is owed about it (the webhook's `order.*`) is written beside it, never after. The post
 * is owed whether or not a webhook is set now: it waits for one, as a lead's post does when the
 * webhook is taken away (decision 047). Whoever commits wakes the engine (`orders.told`, or `owed` as cancelOrder does).
 */
export function recordOrderEvent(
  db: Pick<FarmDatabase, 'insert' | 'select'>,
  event: { orderId: number; type: OrderEventType; at: Date; by: number | null },
): void {
  const { id } = db.insert(orderEvents).values(event).returning({ id: orderEvents.id }).get()
  const order = db.select({ submissionId: orders.submissionId }).from(orders).where(eq(orders.id, event.orderId)).get()
  if (!order) return
  owe(
    db,
    {
      kind: 'webhook-post',
      submissionId: order.submissionId,
      orderEventId: id,
      receiptKey: `msg_${randomBytes(16).toString('base64url')}`,
    },
    event.at,
  )
}
