import { and, asc, eq, gt, gte, lte, ne } from 'drizzle-orm'
import { wallClock } from '#app/clock/farm-clock'
import type { FarmDatabase } from '#app/data/database.server'
import { orders } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { Order } from '#app/leads/order'
import type { SubmissionEvents } from '#app/live/events.server'
import { dayOf } from './orders-query'
import type { Cancelling } from './cancel-order.server'
import { recordOrderEvent } from './order-events.server'
import { readOrders } from './order-view.server'
import { byPickUp, type PickUpMark, type PickUpView } from './pick-ups'

/**
 * The days a view of the pick-ups covers, on the farm's calendar: today, or today and the six days
 * after (on a Sunday the farm packs for the week ahead, not the one just gone).
 */
export function daysOf(view: PickUpView, at: number, zone: string): { from: string; to: string } {
  const { dayNumber } = wallClock(at, zone)
  return { from: dayOf(dayNumber), to: dayOf(view === 'today' ? dayNumber : dayNumber + 6) }
}

/** What marking an order came to: the order as it is now, or why not. */
export type Marked = { ok: true; order: Order } | { ok: false; why: 'no such order' | 'cancelled' }

/**
 * The confirmed orders as the team works them: the pick-ups of a day or a week, the API's pages,
 * and marking one collected or not. Every change is one transaction with its event (and the
 * webhook's post); the open pages are told once it is committed.
 */
export function createOrders({
  db,
  writes,
  events,
  owed,
  timeZone,
  cancelOrder,
  now = Date.now,
}: {
  db: FarmDatabase
  writes: Writes
  events: SubmissionEvents
  /** Wakes the delivery engine: a commit owed a webhook post. */
  owed: () => void
  timeZone: () => string
  /** The one door an order is cancelled by (cancel-order.server.ts): the team's cancel takes it too. */
  cancelOrder: (orderId: number, by: number | null) => Promise<Cancelling>
  now?: () => number
}) {
  /** After a change of an order commits: every open page is told, and the webhook's post is sent. */
  function told(orderId: number): Order | null {
    owed()
    const [order] = readOrders(db, [orderId])
    if (order) events.publish({ type: 'ORDER_CHANGED', order })
    return order ?? null
  }

  return {
    told,
    /** The days a view covers now, on the farm's clock. */
    days: (view: PickUpView) => daysOf(view, now(), timeZone()),
    /** The orders to be picked up between two days (both included), by pick-up time; cancelled ones left out. */
    pickUps(from: string, to: string): Order[] {
      const ids = db
        .select({ id: orders.id })
        .from(orders)
        .where(and(gte(orders.pickUpDate, from), lte(orders.pickUpDate, to), ne(orders.status, 'cancelled')))
        .all()
        .map((row) => row.id)
      return readOrders(db, ids).sort(byPickUp)
    },
    /** The API's page: orders of any status picked up between two days, as confirmed (by id), after `after`. */
    page({ from, to, after, limit }: { from: string; to: string; after: number; limit: number }) {
      const ids = db
        .select({ id: orders.id })
        .from(orders)
        .where(and(gte(orders.pickUpDate, from), lte(orders.pickUpDate, to), gt(orders.id, after)))
        .orderBy(asc(orders.id))
        .limit(limit + 1)
        .all()
        .map((row) => row.id)
      const shown = ids.slice(0, limit)
      return { orders: readOrders(db, shown), next: ids.length > limit ? shown.at(-1)! : null }
    },
    /** Marks an order collected or not collected (again, to put a slip right); a cancelled one stays cancelled. */
    async mark(orderId: number, status: PickUpMark, by: number | null): Promise<Marked> {
      const changed = await writes.whenFree(() =>
        db.transaction((tx) => {
          const row = tx.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).get()
          if (!row) return 'no such order' as const
          if (row.status === 'cancelled') return 'cancelled' as const
          if (row.status === status) return false
          const at = new Date(now())
          tx.update(orders).set({ status, changedAt: at, changedBy: by }).where(eq(orders.id, orderId)).run()
          recordOrderEvent(tx, { orderId, type: `order.${status}`, at, by })
          return true
        }),
      )
      if (changed === 'no such order' || changed === 'cancelled') return { ok: false, why: changed }
      const order = changed ? told(orderId) : (readOrders(db, [orderId])[0] ?? null)
      return order ? { ok: true, order } : { ok: false, why: 'no such order' }
    },
    /** A person of the team cancels an order (after a phone call): what it took goes back on the list. */
    cancel: (orderId: number, by: number | null) => cancelOrder(orderId, by),
  }
}

export type Orders = ReturnType<typeof createOrders>
