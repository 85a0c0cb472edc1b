import { and, count, eq, gt, inArray, isNull, lte, min, or, sql, type SQL } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { DeliveryKind } from '#app/data/enums'
import { deliveries, type DeliveryRow } from '#app/data/schema'
import { gaveUpWords } from './backoff'
import { unpauseKinds } from './pauses.server'

/** Waiting to be sent: not tried yet, or tried and to be tried again. */
export const waiting = sql`${deliveries.state} IN ('queued', 'retrying')`

/** Refused, or given up: what the owner may try again or set aside. */
const failedForGood = inArray(deliveries.state, ['failed', 'gave-up', 'bounced'])

/** The due ones of a kind, as a sender's query picks them. */
export const dueOf = (kind: DeliveryKind, at: Date) =>
  and(eq(deliveries.kind, kind), waiting, lte(deliveries.nextAttemptAt, at))

/**
 * What waits, of these kinds, is due now and has a new day (a try put off, and what waited behind
 * a receiver down), and their receivers no longer wait: the owner changed the settings it failed with (a password, a server, an
 * address), so the next try uses them.
 */
export function dueAgainNow(
  db: Pick<FarmDatabase, 'update' | 'delete' | 'transaction'>,
  kinds: DeliveryKind[],
  at: Date,
): void {
  db.transaction((tx) => {
    tx.update(deliveries)
      .set({ nextAttemptAt: at, failingSince: null })
      .where(
        and(
          inArray(deliveries.kind, kinds),
          waiting,
          or(eq(deliveries.state, 'retrying'), gt(deliveries.nextAttemptAt, at)),
        ),
      )
      .run()
    unpauseKinds(tx, kinds)
  })
}

/** Which items the owner acts on: of a kind, about a lead, a mail. */
type Which = { kind: DeliveryKind; submissionId: number; replyId: number }

const picked = ({ kind, submissionId, replyId }: Which) =>
  and(eq(deliveries.kind, kind), eq(deliveries.submissionId, submissionId), eq(deliveries.replyId, replyId))

/**
 * The one place a delivery's state is written, in one vocabulary for every kind. Each call is one
 * statement; the sender runs it through `writes.whenFree` (or inside its own transaction as `tx`).
 * What a sender learns of a try is written only over an item still waiting: a bounce read back
 * before the receiver's late 250 stays bounced.
 */
export function deliveryRecord(db: Pick<FarmDatabase, 'update' | 'select'>) {
  const byIds = (ids: number[]) => and(inArray(deliveries.id, ids), waiting)
  return {
    /** The receiver took them; `sentIn` names what held more than one (a digest, a burst). */
    sent(ids: number[], at: Date, sentIn: string | null = null) {
      db.update(deliveries).set({ state: 'sent', sentAt: at, sentIn, lastError: null }).where(byIds(ids)).run()
    },
    /** Tried and not taken: tried again at `retryAt`; failing since the first failure without a break. */
    retrying(row: Pick<DeliveryRow, 'id' | 'attempts' | 'failingSince'>, retryAt: Date, why: string, at: Date) {
      db.update(deliveries)
        .set({
          state: 'retrying',
          attempts: row.attempts + 1,
          nextAttemptAt: retryAt,
          failingSince: row.failingSince ?? at,
          lastError: why,
        })
        .where(byIds([row.id]))
        .run()
    },
    /**
     * Left for later without a try: a burst told this minute, or a receiver failing for another
     * item (`failingFrom`), which starts their day of trying too, so they are given up with it.
     */
    deferred(ids: number[], until: Date, failingFrom?: Date) {
      db.update(deliveries)
        .set({
          nextAttemptAt: until,
          ...(failingFrom ? { failingSince: sql`coalesce(${deliveries.failingSince}, ${failingFrom.getTime()})` } : {}),
        })
        .where(byIds(ids))
        .run()
    },
    /** The receiver refused it for good, in its own words. */
    failed(ids: number[], why: string) {
      db.update(deliveries).set({ state: 'failed', lastError: why }).where(byIds(ids)).run()
    },
    /** A day of failing without a break: no more tries; the last failure's words are kept. */
    gaveUp(rows: Array<Pick<DeliveryRow, 'id' | 'lastError'>>) {
      for (const row of rows) {
        db.update(deliveries)
          .set({ state: 'gave-up', lastError: gaveUpWords(row.lastError) })
          .where(byIds([row.id]))
          .run()
      }
    },
    /** No longer owed (the subscriber left before their turn). */
    skipped(id: number, why: string) {
      db.update(deliveries)
        .set({ state: 'skipped', lastError: why })
        .where(byIds([id]))
        .run()
    },
    /** No longer owed, what still waits of this kind to this person: something newer replaced it (a new invitation link). */
    replaced({ kind, memberId }: { kind: DeliveryKind; memberId: number }, why: string) {
      db.update(deliveries)
        .set({ state: 'skipped', lastError: why })
        .where(and(eq(deliveries.kind, kind), eq(deliveries.memberId, memberId), waiting))
        .run()
    },
    /**
     * It came back from the receiver's mail server (a bounce read from the farm's mailbox): bounced,
     * whatever was written of it before, and never written over by what its sender learns after.
     */
    bounced(id: number, why: string) {
      db.update(deliveries).set({ state: 'bounced', lastError: why }).where(eq(deliveries.id, id)).run()
    },
    /**
     * Owed again from now, as if new (the owner's 'Try again'), any set-aside undone: the ones
     * `which` picks that failed or were given up. Answers how many.
     */
    again(which: Which, at: Date): number {
      return db
        .update(deliveries)
        .set({
          state: 'queued',
          attempts: 0,
          nextAttemptAt: at,
          failingSince: null,
          lastError: null,
          dismissedAt: null,
        })
        .where(and(picked(which), failedForGood))
        .run().changes
    },
    /** Set aside by the owner, who has seen it: the failed ones `which` picks, not set aside yet. Answers how many. */
    setAside(which: Which, at: Date): number {
      return db
        .update(deliveries)
        .set({ dismissedAt: at })
        .where(and(picked(which), failedForGood, isNull(deliveries.dismissedAt)))
        .run().changes
    },
  }
}

/** What is owed, to whom and about what; the rest of its row is the engine's. */
type Owed = Pick<
  typeof deliveries.$inferInsert,
  'kind' | 'submissionId' | 'replyId' | 'phoneId' | 'memberId' | 'orderEventId' | 'receiptKey'
>

/** Owes one item from `at`: called inside the transaction that causes it. */
export function owe(tx: Pick<FarmDatabase, 'insert'>, owed: Owed, at: Date): void {
  tx.insert(deliveries)
    .values({ ...owed, nextAttemptAt: at, createdAt: at })
    .run()
}

/**
 * Owes an update's mail to each subscriber `audience` picks (a condition on `subscribers`, as `s`),
 * in one statement however many they are. Each mail's Message-ID is random and kept with it, so a
 * retry sends the same one. Answers how many.
 */
export function oweAnUpdate(tx: Pick<FarmDatabase, 'run'>, updateId: number, audience: SQL, at: Date): number {
  return tx.run(
    sql`INSERT INTO ${deliveries} (kind, update_id, subscriber_id, next_attempt_at, created_at, receipt_key)
        SELECT 'update-mail', ${updateId}, s.id, ${at.getTime()}, ${at.getTime()},
          'update.' || lower(hex(randomblob(16))) FROM subscribers s
        WHERE ${audience} ORDER BY s.id`,
  ).changes
}

/**
 * Owes a push about a lead (or, with `replyId`, the visitor's answer) to each phone `phones` picks
 * (a condition on `push_subscriptions`), in one statement: it runs in a lead's own commit. Answers how many.
 */
export function owePushes(
  tx: Pick<FarmDatabase, 'run'>,
  { submissionId, replyId }: { submissionId: number; replyId: number | null },
  phones: SQL,
  at: Date,
): number {
  return tx.run(
    sql`INSERT INTO ${deliveries} (kind, phone_id, submission_id, reply_id, next_attempt_at, created_at)
        SELECT 'push', id, ${submissionId}, ${replyId}, ${at.getTime()}, ${at.getTime()} FROM push_subscriptions
        WHERE ${phones}`,
  ).changes
}

/**
 * `owe`, prepared once: for what a lead's own commit owes on the POST path, where building the
 * statement each time would cost the form's rate.
 */
export function owingOn(db: FarmDatabase) {
  const insert = db
    .insert(deliveries)
    .values({
      kind: sql.placeholder('kind'),
      submissionId: sql.placeholder('submissionId'),
      replyId: sql.placeholder('replyId'),
      receiptKey: sql.placeholder('receiptKey'),
      nextAttemptAt: sql.placeholder('at'),
      createdAt: sql.placeholder('at'),
    })
    .prepare()
  return (owed: Required<Pick<Owed, 'kind' | 'submissionId' | 'replyId' | 'receiptKey'>>, at: Date) =>
    void insert.run({ ...owed, at })
}

/** When a kind's next item falls due (ms since the epoch), or null when none waits. */
export function soonestDue(db: FarmDatabase, kind: DeliveryKind): number | null {
  const [next] = db
    .select({ at: min(deliveries.nextAttemptAt) })
    .from(deliveries)
    .where(and(eq(deliveries.kind, kind), waiting))
    .all()
  return next?.at instanceof Date ? next.at.getTime() : null
}

/** How many of these kinds wait to be sent, and since when the oldest has. */
export function backlogOf(db: FarmDatabase, kinds: DeliveryKind[]): { unsent: number; oldest: Date | null } {
  const [row] = db
    .select({ unsent: count(), oldest: min(deliveries.createdAt) })
    .from(deliveries)
    .where(and(inArray(deliveries.kind, kinds), waiting))
    .all()
  return { unsent: row?.unsent ?? 0, oldest: row?.oldest ?? null }
}
