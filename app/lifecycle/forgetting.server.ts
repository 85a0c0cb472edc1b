import { and, eq, inArray, lte, sql } from 'drizzle-orm'
import type { FarmDatabase, OpenDatabase } from '#app/data/database.server'
import {
  erasures,
  mailSuppressions,
  productNews,
  productWaits,
  replies,
  returnedMails,
  subscribers,
  submissions,
} from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
import type { Erasure, ErasureList } from './erasures.server'
import { mailboxOf, sentBy, subscribedAs, theirAnswers } from './person-rows.server'

/** How many times, a second apart, emptying the log is tried while another process reads. */
const mostLogTries = 600

/**
 * Their submissions (which take their mails, pushes, posts and search entries with them): all,
 * or, re-applying a forgetting, those sent up to it (what they sent after is theirs to have sent).
 */
const deleteSubmissionsOf = (tx: Pick<FarmDatabase, 'delete'>, address: string, upTo?: number) =>
  tx
    .delete(submissions)
    .where(upTo === undefined ? sentBy(address) : and(sentBy(address), lte(submissions.createdAt, new Date(upTo))))
    .returning({ id: submissions.id })
    .all()
    .map((row) => row.id)

/**
 * Their subscription, by the mailbox the address reaches (its update mails go with it), made up
 * to `upTo` when given; null when there was none, else whether they had left the updates.
 */
const deleteSubscriptionOf = (tx: Pick<FarmDatabase, 'delete'>, address: string, upTo?: number) => {
  const [deleted] = tx
    .delete(subscribers)
    .where(
      upTo === undefined
        ? subscribedAs(address)
        : and(subscribedAs(address), lte(subscribers.createdAt, new Date(upTo))),
    )
    .returning({ status: subscribers.status })
    .all()
  return deleted ? { unsubscribed: deleted.status === 'unsubscribed' } : null
}

/**
 * What came back from their mailbox (bounces and complaints, as they came), the farm's stop of
 * it, and the answers they wrote on others' leads; how many rows went.
 */
const deleteWhatCameBackFrom = (tx: Pick<FarmDatabase, 'delete'>, address: string, upTo?: number) => {
  const keys = mailboxOf(address)
  const before = (at: typeof returnedMails.receivedAt | typeof replies.createdAt | typeof productWaits.askedAt) =>
    upTo === undefined ? undefined : lte(at, new Date(upTo))
  const returned = tx
    .delete(returnedMails)
    .where(and(inArray(returnedMails.addressKey, keys), before(returnedMails.receivedAt)))
    .run()
  tx.delete(mailSuppressions).where(inArray(mailSuppressions.addressKey, keys)).run()
  const answers = tx
    .delete(replies)
    .where(and(theirAnswers(address), before(replies.createdAt)))
    .run()
  // Their 'Tell me when it's ready', and the record that they were told.
  const waits = tx
    .delete(productWaits)
    .where(and(inArray(productWaits.addressKey, keys), before(productWaits.askedAt)))
    .run()
  tx.delete(productNews).where(inArray(productNews.addressKey, keys)).run()
  return returned.changes + answers.changes + waits.changes
}

/** The forgetting's record: the latest one holds, and once they had left the updates, that stays said. */
const recordErasure = (tx: Pick<FarmDatabase, 'insert'>, erasure: Erasure, by: number | null) =>
  tx
    .insert(erasures)
    .values({
      addressHash: erasure.hash,
      mailboxHash: erasure.mailbox,
      erasedAt: new Date(erasure.at),
      erasedBy: by,
      unsubscribed: erasure.unsubscribed === true,
    })
    .onConflictDoUpdate({
      target: erasures.addressHash,
      set: {
        erasedAt: sql`max(${erasures.erasedAt}, excluded.erased_at)`,
        unsubscribed: sql`max(${erasures.unsubscribed}, excluded.unsubscribed)`,
      },
    })
    .run()

/** A person's erasure (the right to be forgotten), and its re-applying after a backup from before it is restored. */
export function createForgetting({
  db,
  sqlite,
  writes,
  events,
  erasureList,
  log,
  now,
}: {
  db: FarmDatabase
  /** The connection itself: its write-ahead log is emptied after an erasure. */
  sqlite: OpenDatabase['sqlite']
  writes: Writes
  events: SubmissionEvents
  erasureList: ErasureList
  log: Log
  now: () => number
}) {
  let logTimer: ReturnType<typeof setTimeout> | undefined
  /**
   * Empties the write-ahead log, which still holds old copies of the pages the person's rows
   * were on. A reader in another process (a backup being copied) can hold it for a moment: then
   * it is tried again each second, and the log says if it never could be.
   */
  function emptyTheLog(tries = 0) {
    clearTimeout(logTimer)
    const [result] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>
    if (result?.busy === 0) return
    if (tries >= mostLogTries) {
      log.error({ tries }, 'could not empty the write-ahead log after forgetting: another process kept reading it')
      return
    }
    logTimer = setTimeout(() => emptyTheLog(tries + 1), 1_000)
    logTimer.unref()
  }

  return {
    /**
     * Forgets a person: every row about them deleted in one transaction with the erasure's
     * record, the erasure added to the list's file, the write-ahead log emptied, every tab told.
     * Null when the site holds nothing about them (the forgetting is recorded all the same).
     */
    async forget(
      given: string,
      /** Who of the team asked (null: re-applied from the list). */
      by: number | null,
    ): Promise<{ submissions: number; subscription: boolean; removed: number[] } | null> {
      const address = given.trim()
      const erased = await writes.whenFree(() =>
        db.transaction((tx) => {
          const ids = deleteSubmissionsOf(tx, address)
          const subscription = deleteSubscriptionOf(tx, address)
          const cameBack = deleteWhatCameBackFrom(tx, address)
          const erasure: Erasure = {
            ...erasureList.erasureOf(address, now()),
            ...(subscription?.unsubscribed ? { unsubscribed: true } : {}),
          }
          // Recorded even when nothing is here now: a backup restored later may hold what they sent.
          recordErasure(tx, erasure, by)
          return { ids, subscription: subscription !== null, erasure, cameBack }
        }),
      )
      // They are forgotten; a file that cannot be written gets the record at the next start.
      erasureList.recordInFile(erased.erasure)
      emptyTheLog()
      if (erased.ids.length === 0 && !erased.subscription && erased.cameBack === 0) return null
      if (erased.ids.length > 0) events.publish({ type: 'SUBMISSIONS_REMOVED', ids: erased.ids })
      return { submissions: erased.ids.length, subscription: erased.subscription, removed: erased.ids }
    },

    /** Stops trying to empty the log (the database is about to close, which empties it). */
    stop: () => clearTimeout(logTimer),

    /**
     * At start: forgets again everyone the list's file names whom the database does not know as
     * forgotten as late (a backup from before a forgetting was restored), by the same rules as
     * the forgetting, up to its time. Returns how many people it found here.
     */
    reapplyErasures(): number {
      const missing = erasureList.reconcile()
      if (missing.length === 0) return 0
      const byAddress = new Map(missing.map((erasure) => [erasure.hash, erasure]))
      const byMailbox = new Map(missing.map((erasure) => [erasure.mailbox, erasure]))
      const found = new Set<Erasure>()
      db.transaction((tx) => {
        const addresses = tx
          .all<{ address: string }>(sql`SELECT DISTINCT lower(${submissions.email}) AS address FROM ${submissions}`)
          .map((row) => row.address)
        for (const address of addresses) {
          const erasure = byAddress.get(erasureList.hashOfAddress(address))
          if (erasure && deleteSubmissionsOf(tx, address, erasure.at).length > 0) found.add(erasure)
        }
        for (const { email } of tx.select({ email: subscribers.email }).from(subscribers).all()) {
          const erasure = byMailbox.get(erasureList.hashOfMailbox(email))
          if (erasure && deleteSubscriptionOf(tx, email, erasure.at)) found.add(erasure)
        }
        const cameBack = tx.all<{ address: string }>(
          sql`SELECT address FROM ${returnedMails} UNION SELECT to_address FROM ${replies} WHERE kind IN ('answer', 'automatic-answer') UNION SELECT email FROM ${productWaits}`,
        )
        for (const { address } of cameBack) {
          const erasure = byMailbox.get(erasureList.hashOfMailbox(address))
          if (erasure && deleteWhatCameBackFrom(tx, address, erasure.at) > 0) found.add(erasure)
        }
        for (const erasure of missing) recordErasure(tx, erasure, null)
      })
      emptyTheLog()
      return found.size
    },
  }
}

/** Whether an address was forgotten, and when: what mail and asks coming later must respect. */
export function createForgottenChecks({ db, erasureList }: { db: FarmDatabase; erasureList: ErasureList }) {
  const forgottenAt = db
    .select({ at: erasures.erasedAt })
    .from(erasures)
    .where(
      and(
        sql`(${erasures.addressHash} = ${sql.placeholder('hash')} OR ${erasures.mailboxHash} = ${sql.placeholder('mailbox')})`,
        sql`${erasures.erasedAt} >= ${sql.placeholder('at')}`,
      ),
    )
    .limit(1)
    .prepare()

  const leftUpdates = db
    .select({ at: erasures.erasedAt })
    .from(erasures)
    .where(and(eq(erasures.mailboxHash, sql.placeholder('mailbox')), eq(erasures.unsubscribed, true)))
    .limit(1)
    .prepare()

  return {
    /** Whether this address's mailbox left the updates before it was forgotten: then it is never asked again. */
    leftBeforeForgetting(address: string): boolean {
      return leftUpdates.get({ mailbox: erasureList.hashOfMailbox(address) }) !== undefined
    },

    /**
     * Whether the site was made to forget this address at or after `at`: a mail of theirs written
     * before it (still in the farm's mailbox, read again after a backup was restored) is not kept.
     */
    forgottenSince(address: string, at: Date): boolean {
      return (
        forgottenAt.get({
          hash: erasureList.hashOfAddress(address),
          mailbox: erasureList.hashOfMailbox(address),
          at: at.getTime(),
        }) !== undefined
      )
    },
  }
}
