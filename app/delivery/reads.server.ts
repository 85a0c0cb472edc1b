import {
  and,
  asc,
  count,
  countDistinct,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  like,
  max,
  sql,
  type SQL,
} from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { DeliveryKind, DeliveryState } from '#app/data/enums'
import { deliveries, type DeliveryRow } from '#app/data/schema'
import { waiting } from './record.server'

/**
 * What the rest of the site reads of what it owes: every read of `deliveries` outside the engine
 * is one of these, so the table's shape is known in app/delivery alone.
 */
type Reads = Pick<FarmDatabase, 'select' | 'get' | 'all'>

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

/** How many of an update's mails are in each state. */
export const updateMailStates = (db: Reads, updateId: number) =>
  db.all<{ state: DeliveryState; n: number }>(
    sql`SELECT state, count(*) AS n FROM ${deliveries} WHERE update_id = ${updateId} GROUP BY 1`,
  )

/** Why an update's mails failed for good, the commonest reasons first, at most `most` of them. */
export const updateFailures = (db: Reads, updateId: number, most: number) =>
  db.all<{ reason: string; count: number }>(
    sql`SELECT coalesce(last_error, 'No reason given') AS reason, count(*) AS count FROM ${deliveries}
        WHERE update_id = ${updateId} AND state IN ('failed', 'gave-up') GROUP BY 1 ORDER BY 2 DESC LIMIT ${most}`,
  )

/** How many subscribers an update was owed to that `who` picks (a condition on `subscribers`, as `s`). */
export const updateSubscribersWho = (db: Reads, updateId: number, who: SQL): number =>
  db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM ${deliveries} d JOIN subscribers s ON s.id = d.subscriber_id
        WHERE d.update_id = ${updateId} AND ${who}`,
  ).n

/** How many of a kind the receiver took since a moment. */
export function sentSince(db: Reads, kind: DeliveryKind, since: Date): number {
  const [row] = db
    .select({ n: count() })
    .from(deliveries)
    .where(and(eq(deliveries.kind, kind), gte(deliveries.sentAt, since)))
    .all()
  return row?.n ?? 0
}

/** Whether anything of a kind waits to be sent. */
export const somethingWaits = (db: Reads, kind: DeliveryKind): boolean =>
  db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(and(eq(deliveries.kind, kind), waiting))
    .limit(1)
    .all().length > 0

/** How many mails went to the owner since a moment, a digest once (each mail's `sentIn` names it). */
export function mailsToOwnerSince(db: Reads, since: Date): number {
  const [row] = db
    .select({ mails: countDistinct(deliveries.sentIn) })
    .from(deliveries)
    .where(and(eq(deliveries.kind, 'owner-mail'), gte(deliveries.sentAt, since)))
    .all()
  return row?.mails ?? 0
}

/** When the owner's last digest went, if one went since a moment. */
export function lastDigestSince(db: Reads, since: Date): Date | null {
  const [row] = db
    .select({ at: max(deliveries.sentAt) })
    .from(deliveries)
    .where(
      and(eq(deliveries.kind, 'owner-mail'), gte(deliveries.sentAt, since), sql`${deliveries.sentIn} LIKE 'digest-%'`),
    )
    .all()
  return row?.at ?? null
}

/** What a phone was told since a moment: how many leads one by one, and when a burst, if one. */
export function phoneToldSince(db: Reads, phoneId: number, since: Date): { singles: number; burstAt: Date | null } {
  const mine = and(eq(deliveries.phoneId, phoneId), gte(deliveries.sentAt, since))
  const [recent] = db
    .select({ singles: count() })
    .from(deliveries)
    .where(and(mine, isNull(deliveries.sentIn)))
    .all()
  const [burst] = db
    .select({ at: max(deliveries.sentAt) })
    .from(deliveries)
    .where(and(mine, like(deliveries.sentIn, 'burst%')))
    .all()
  return { singles: recent?.singles ?? 0, burstAt: burst?.at ?? null }
}
