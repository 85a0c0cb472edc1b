import type { FarmDatabase } from '#app/data/database.server'
import type { Cancelling, CancelOrder } from './cancel-order.server'
import { cancelUntil } from './cut-off'
import type { OrderLinks } from './order-links.server'
import { readOrders } from './order-view.server'
import type { VisitorOrder } from './visitor-order'

/**
 * The visitor's side of an order: what its signed link shows, and its cancel. A link this site did
 * not sign for that order is no order at all; nothing else is read from the request.
 */
export function createVisitorOrders({
  db,
  links,
  cancelOrder,
  cut,
  now = Date.now,
}: {
  db: FarmDatabase
  links: OrderLinks
  cancelOrder: CancelOrder
  cut: () => { hoursBefore: number; timeZone: string }
  now?: () => number
}) {
  return {
    show(token: string): VisitorOrder | null {
      const orderId = links.orderOf(token)
      const [order] = orderId === null ? [] : readOrders(db, [orderId])
      if (!order) return null
      const { hoursBefore, timeZone } = cut()
      const until = cancelUntil(order.pickUp.date, hoursBefore, timeZone)
      const { name, status, lines, totalCents, pickUp } = order
      return {
        name,
        status,
        lines,
        totalCents,
        pickUp,
        cancelUntil: until,
        mayCancel: status === 'confirmed' && now() < until,
      }
    },
    /** Null when the link is not one of an order kept. */
    async cancel(token: string): Promise<Cancelling | null> {
      const orderId = links.orderOf(token)
      if (orderId === null) return null
      const cancelled = await cancelOrder(orderId, null)
      return cancelled.outcome === 'gone' ? null : cancelled
    },
  }
}

export type VisitorOrders = ReturnType<typeof createVisitorOrders>
