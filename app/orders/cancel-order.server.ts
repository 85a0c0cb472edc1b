import { and, eq, isNotNull, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { OrderStatus } from '#app/data/enums'
import { orderLines, orders, replies, submissions, weekList, type SubmissionRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { mailboxKey } from '#app/leads/mailbox'
import type { Order } from '#app/leads/order'
import type { SubmissionEvents } from '#app/live/events.server'
import { newMessageId } from '#app/replies/reply-mail.server'
import { tellThread } from '#app/replies/threads.server'
import { cancelUntil } from './cut-off'
import { recordOrderEvent } from './order-events.server'
import { inUnitsOf } from './order-pricing'
import { readOrders } from './order-view.server'
import { lineWords, pickUpWords } from './order-words'

/** Told when a visitor answers the farm (the owner's mail, the phones): told so of a cancellation too. */
export interface TeamTold {
  /** Inside the transaction that keeps the answer. */
  queueAnswer(lead: SubmissionRow, answerId: number, at: Date): void
}

export type Cancelling =
  | { outcome: 'cancelled'; order: Order }
  | { outcome: 'too late'; until: number }
  | { outcome: 'not confirmed'; status: OrderStatus }
  | { outcome: 'gone' }

/** The words the card's thread, the owner's mail and the phones show of a visitor's cancellation. */
export const cancellationWords = (order: Pick<Order, 'lines' | 'pickUp'>) =>
  `Cancelled this order by its link: ${order.lines.map(lineWords).join(' · ')}, for ${pickUpWords(order.pickUp)}. What it took is back on this week’s list.`

/**
 * The one door by which an order is cancelled, by its visitor (`by` null) or a person of the team:
 * only a confirmed order; by its visitor only until its cut-off (ORDER_CANCEL_HOURS before the
 * pick-up day, on the farm's clock). In one transaction: its status, the stock it took put back, its event, and (when the
 * visitor cancelled) a note in the lead's thread, told to the team as an answer is. Once committed,
 * every open page is told.
 */
export function createOrderCancelling({
  db,
  writes,
  events,
  teamTold,
  owed,
  from,
  cut,
  now = () => new Date(),
}: {
  db: FarmDatabase
  writes: Writes
  events: SubmissionEvents
  teamTold: TeamTold[]
  /** After the commit: something was owed (the owner's mail, a push, the webhook's post). */
  owed: () => void
  /** The From address, for the note's Message-ID. */
  from: () => string
  /** ORDER_CANCEL_HOURS and the farm's clock, now. */
  cut: () => { hoursBefore: number; timeZone: string }
  now?: () => Date
}) {
  /**
   * Each line back in the list's unit as it is now, counted again from the line's quantity: the
   * owner may have gone from 'a dozen' to 'each' since (what it took is kept in the unit of then).
   */
  function putBack(tx: FarmDatabase, orderId: number) {
    const taken = tx
      .select({
        product: orderLines.product,
        quantity: orderLines.quantity,
        unit: orderLines.unit,
        listUnit: weekList.unit,
      })
      .from(orderLines)
      .innerJoin(weekList, eq(weekList.product, orderLines.product))
      .where(and(eq(orderLines.orderId, orderId), isNotNull(orderLines.stockTaken), isNotNull(weekList.stock)))
      .all()
    for (const line of taken) {
      const back = inUnitsOf(line.quantity, line.unit, line.listUnit)
      // A unit the order cannot be counted in (a dozen, now 'a box'): nothing back rather than a wrong count.
      if (back === null) continue
      tx.update(weekList)
        .set({ stock: sql`round(${weekList.stock} + ${back}, 6)` })
        .where(and(eq(weekList.product, line.product), isNotNull(weekList.stock)))
        .run()
    }
  }

  function noteInThread(tx: FarmDatabase, lead: SubmissionRow, order: Order, at: Date) {
    const note = tx
      .insert(replies)
      .values({
        submissionId: lead.id,
        kind: 'answer',
        toAddress: lead.email,
        addressKey: mailboxKey(lead.email),
        text: cancellationWords(order),
        messageId: newMessageId(from()),
        createdAt: at,
      })
      .returning({ id: replies.id })
      .get()
    // As an answer does: the lead is back in New, and the team is told.
    if (lead.status !== 'new') {
      tx.update(submissions).set({ status: 'new', statusChangedBy: null }).where(eq(submissions.id, lead.id)).run()
    }
    for (const told of teamTold) told.queueAnswer(lead, note.id, at)
  }

  return async function cancelOrder(orderId: number, by: number | null): Promise<Cancelling> {
    const at = now()
    const done = await writes.whenFree(() =>
      db.transaction((tx): Cancelling => {
        const [order] = readOrders(tx, [orderId])
        if (!order) return { outcome: 'gone' }
        if (order.status !== 'confirmed') return { outcome: 'not confirmed', status: order.status }
        const { hoursBefore, timeZone } = cut()
        const until = cancelUntil(order.pickUp.date, hoursBefore, timeZone)
        // The cut-off is the visitor's: the team may still cancel after a late phone call.
        if (by === null && at.getTime() >= until) return { outcome: 'too late', until }
        tx.update(orders)
          .set({ status: 'cancelled', changedAt: at, changedBy: by })
          .where(and(eq(orders.id, orderId), eq(orders.status, 'confirmed')))
          .run()
        putBack(tx, orderId)
        recordOrderEvent(tx, { orderId, type: 'order.cancelled', at, by })
        if (by === null) {
          const lead = tx.select().from(submissions).where(eq(submissions.id, order.leadId)).get()!
          noteInThread(tx, lead, order, at)
        }
        return { outcome: 'cancelled', order: readOrders(tx, [orderId])[0]! }
      }),
    )
    if (done.outcome !== 'cancelled') return done
    events.publish({ type: 'ORDER_CHANGED', order: done.order })
    if (by === null) tellThread(db, events, done.order.leadId)
    // The webhook's `order.cancelled` was owed in the transaction, whoever cancelled.
    owed()
    return done
  }
}

export type CancelOrder = ReturnType<typeof createOrderCancelling>
