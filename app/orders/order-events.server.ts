import type { FarmDatabase } from '#app/data/database.server'
import type { OrderEventType } from '#app/data/enums'
import { orderEvents } from '#app/data/schema'

/**
 * Inside the transaction that changes an order: what happened is kept in its history, and
 * whatever is owed about it (the webhook's `order.*`) is written beside it, never after.
 */
export function recordOrderEvent(
  db: FarmDatabase,
  event: { orderId: number; type: OrderEventType; at: Date; by: number | null },
): void {
  db.insert(orderEvents).values(event).run()
}
