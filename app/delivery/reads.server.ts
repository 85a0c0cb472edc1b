import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { deliveries, type DeliveryRow } from '#app/data/schema'

/**
 * What the rest of the site reads of what it owes: every read of `deliveries` outside the engine
 * is one of these, so the table's shape is known in app/delivery alone.
 */
type Reads = Pick<FarmDatabase, 'select'>

/** How each of these mails to visitors went, by the mail's id (an answer read back has none). */
export function visitorMailsOf(db: Reads, replyIds: number[]): Map<number, DeliveryRow> {
  if (replyIds.length === 0) return new Map()
  const rows = db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.kind, 'visitor-mail'), inArray(deliveries.replyId, replyIds)))
    .all()
  return new Map(rows.map((row) => [row.replyId!, row]))
}

/** What went out with this receipt key (the id its receiver knows it by: a mail's Message-ID). */
export const sentWithKey = (db: Reads, key: string): DeliveryRow | undefined =>
  db.select().from(deliveries).where(eq(deliveries.receiptKey, key)).get()

/** Everything owed about these leads, whatever its kind, oldest first (a person's export). */
export function owedAbout(db: Reads, submissionIds: number[]): DeliveryRow[] {
  if (submissionIds.length === 0) return []
  return db
    .select()
    .from(deliveries)
    .where(inArray(deliveries.submissionId, submissionIds))
    .orderBy(asc(deliveries.id))
    .all()
}

/** Each update's mail to one subscriber, oldest first (their export). */
export const updateMailsTo = (db: Reads, subscriberId: number): DeliveryRow[] =>
  db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.subscriberId, subscriberId), isNotNull(deliveries.updateId)))
    .orderBy(asc(deliveries.id))
    .all()
