import { asc, eq, inArray } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { orderLines, orders, submissions } from '#app/data/schema'
import type { Order } from '#app/leads/order'

/** Orders as the team's pages, the API and the webhook show them, in the order of `ids`; an id no longer kept is left out. */
export function readOrders(db: FarmDatabase, ids: readonly number[]): Order[] {
  if (ids.length === 0) return []
  const rows = db
    .select({ order: orders, name: submissions.name, email: submissions.email })
    .from(orders)
    .innerJoin(submissions, eq(submissions.id, orders.submissionId))
    .where(inArray(orders.id, [...ids]))
    .all()
  const lines = db
    .select()
    .from(orderLines)
    .where(inArray(orderLines.orderId, [...ids]))
    .orderBy(asc(orderLines.orderId), asc(orderLines.position))
    .all()
  const byId = new Map(
    rows.map(({ order, name, email }): [number, Order] => [
      order.id,
      {
        id: order.id,
        leadId: order.submissionId,
        name,
        email,
        status: order.status,
        lines: lines
          .filter((line) => line.orderId === order.id)
          .map(({ product, quantity, unit, priceCents }) => ({ product, quantity, unit, priceCents })),
        totalCents: order.totalCents,
        pickUp: { date: order.pickUpDate, from: order.pickUpFrom, to: order.pickUpTo },
        confirmedAt: order.confirmedAt.toISOString(),
        changedAt: order.changedAt.toISOString(),
      },
    ]),
  )
  return ids.flatMap((id) => byId.get(id) ?? [])
}
