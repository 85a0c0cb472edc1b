import { and, asc, eq, getTableColumns, inArray, lte, sql } from 'drizzle-orm'
import type { DeliveryKind } from '#app/data/enums'
import type { FarmDatabase, OpenDatabase } from '#app/data/database.server'
import type { Log } from '#app/log'
import type { Writes } from '#app/data/writes.server'
import {
  deliveries,
  erasures,
  mailSuppressions,
  replies,
  returnedMails,
  subscribers,
  submissions,
  updates,
} from '#app/data/schema'
import type { SubmissionEvents } from '#app/live/events.server'
import { spellingsOf } from '#app/leads/address.server'
import { leadView } from '#app/leads/lead-view.server'
import { leadPushMessage } from '#app/push/push-message'
import { asSqliteLowers, personMailbox, type Erasure, type ErasureList } from './erasures.server'

/** How many times, a second apart, emptying the log is tried while another process reads. */
const mostLogTries = 600

const iso = (date: Date | null) => date?.toISOString() ?? null

/** An answer read back from their mailbox, as their export gives it. */
const answerOf = (mail: typeof replies.$inferSelect) => ({
  kind: mail.kind,
  from: mail.toAddress,
  text: mail.text,
  attachments: mail.attachments ?? [],
  writtenAt: iso(mail.createdAt),
  messageId: mail.messageId,
})

/**
 * A person's submissions: by their address, whatever its case (the index on lower(email)), and
 * whichever way its domain was spelt when kept (a row kept before the one form, in IDNA's ASCII).
 */
const sentBy = (address: string) =>
  inArray(sql`lower(${submissions.email})`, spellingsOf(address.trim()).map(asSqliteLowers))

/** A person's subscription: by the mailbox their address reaches (the unique index on address_key). */
const subscribedAs = (address: string) =>
  // Also under the key a row got before a domain had one form, if another row held the new one.
  inArray(subscribers.addressKey, spellingsOf(personMailbox(address)))

/** What came back from their mailbox (bounces, complaints), the farm's stop, and their answers on others' leads. */
const mailboxOf = (address: string) => spellingsOf(personMailbox(address))
const theirAnswers = (address: string) =>
  and(inArray(replies.kind, ['answer', 'automatic-answer']), inArray(replies.addressKey, mailboxOf(address)))

/**
 * One person, by their email address: everything the site holds about them, to give them on
 * request, and their erasure (the right to be forgotten), which removes every row about them in
 * one transaction and leaves only a salted hash of the address to say it was done.
 */
export function createPeople({
  database,
  writes,
  events,
  erasureList,
  siteUrl,
  log,
  now = Date.now,
}: {
  database: Pick<OpenDatabase, 'db' | 'sqlite'>
  writes: Writes
  events: SubmissionEvents
  erasureList: ErasureList
  /** PUBLIC_URL, which the pushes' addresses begin with. */
  /** PUBLIC_URL now, for the links in a person's export. */
  siteUrl: () => string | null
  log: Log
  now?: () => number
}) {
  const { db, sqlite } = database

  /** All they sent and all that was sent to them or about them, or null when the site holds nothing. */
  function exportOf(given: string) {
    const address = given.trim()
    const sent = db.select().from(submissions).where(sentBy(address)).orderBy(asc(submissions.id)).all()
    const subscriber = db.select().from(subscribers).where(subscribedAs(address)).get()
    const returned = db
      .select()
      .from(returnedMails)
      .where(inArray(returnedMails.addressKey, mailboxOf(address)))
      .orderBy(asc(returnedMails.id))
      .all()
    // Answers they wrote on another's lead (from another address of the conversation).
    const answersElsewhere = db
      .select()
      .from(replies)
      .where(
        and(
          theirAnswers(address),
          sql`${replies.submissionId} NOT IN (SELECT id FROM ${submissions} WHERE ${sentBy(address)})`,
        ),
      )
      .orderBy(asc(replies.id))
      .all()
    if (sent.length === 0 && !subscriber && returned.length === 0 && answersElsewhere.length === 0) return null
    const ids = sent.map((row) => row.id)
    const bySubmission =
      <T extends { submissionId: number }>(rows: T[]) =>
      (id: number) =>
        rows.filter((row) => row.submissionId === id)
    const mailsTo = bySubmission(
      ids.length
        ? db
            .select({ ...getTableColumns(replies), delivery: deliveries })
            .from(replies)
            .leftJoin(deliveries, and(eq(deliveries.replyId, replies.id), eq(deliveries.kind, 'visitor-mail')))
            .where(inArray(replies.submissionId, ids))
            .orderBy(asc(replies.id))
            .all()
        : [],
    )
    const owed = ids.length
      ? db
          .select()
          .from(deliveries)
          .where(inArray(deliveries.submissionId, ids))
          .orderBy(asc(deliveries.id))
          .all()
          .map((row) => ({ ...row, submissionId: row.submissionId! }))
      : []
    const ofKind = (kind: DeliveryKind) => bySubmission(owed.filter((row) => row.kind === kind))
    const ownerMails = ofKind('owner-mail')
    const posts = ofKind('webhook-post')
    const pushes = ofKind('push')
    return {
      email: address,
      exportedAt: new Date(now()).toISOString(),
      submissions: sent.map(leadView).map((lead) => ({
        id: lead.id,
        name: lead.name,
        email: lead.email,
        message: lead.message,
        createdAt: lead.createdAt,
        status: lead.status,
        spam: lead.spam,
        summary: lead.aiResponse,
        analysis: lead.analysis,
        mailsToThem: mailsTo(lead.id)
          .filter((mail) => mail.delivery !== null)
          .map((mail) => ({
            kind: mail.kind,
            to: mail.toAddress,
            text: mail.text,
            status: mail.delivery!.state,
            messageId: mail.messageId,
            queuedAt: iso(mail.delivery!.createdAt),
            sentAt: iso(mail.delivery!.sentAt),
            lastError: mail.delivery!.lastError,
          })),
        answersFromThem: mailsTo(lead.id)
          .filter((mail) => mail.delivery === null)
          .map(answerOf),
        mailsToTheOwner: ownerMails(lead.id).map((mail) => ({
          status: mail.state,
          createdAt: iso(mail.createdAt),
          sentAt: iso(mail.sentAt),
        })),
        webhookPosts: posts(lead.id).map((post) => ({
          webhookId: post.receiptKey,
          status: post.state,
          createdAt: iso(post.createdAt),
          sentAt: iso(post.sentAt),
        })),
        pushesToTheOwnersPhones: pushes(lead.id).map((push) => ({
          status: push.state,
          createdAt: iso(push.createdAt),
          sentAt: iso(push.sentAt),
          payload: leadPushMessage(lead, siteUrl()),
        })),
      })),
      answersOnOtherLeads: answersElsewhere.map(answerOf),
      mailsThatCameBack: returned.map((mail) => ({
        kind: mail.kind,
        address: mail.address,
        permanent: mail.permanent,
        status: mail.status,
        words: mail.words,
        receivedAt: iso(mail.receivedAt),
        asItCame: mail.source,
      })),
      subscription: subscriber
        ? {
            email: subscriber.email,
            name: subscriber.name,
            status: subscriber.status,
            consent: subscriber.consent,
            addedBy: subscriber.addedBy,
            askedAt: iso(subscriber.askedAt),
            subscribedAt: iso(subscriber.subscribedAt),
            unsubscribedAt: iso(subscriber.unsubscribedAt),
            unsubscribedBy: subscriber.unsubscribedBy,
            lastError: subscriber.lastError,
            updatesMailed: db
              .select({
                subject: updates.subject,
                status: deliveries.state,
                sentAt: deliveries.sentAt,
                lastError: deliveries.lastError,
              })
              .from(deliveries)
              .innerJoin(updates, eq(updates.id, deliveries.updateId))
              .where(eq(deliveries.subscriberId, subscriber.id))
              .orderBy(asc(deliveries.id))
              .all()
              .map((mail) => ({ ...mail, sentAt: iso(mail.sentAt) })),
          }
        : null,
    }
  }

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
    const before = (at: typeof returnedMails.receivedAt | typeof replies.createdAt) =>
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
    return returned.changes + answers.changes
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
    exportOf,
    /** The erasure list's salted hash of an address: how the activity log names a visitor. */
    hashOfAddress: erasureList.hashOfAddress,

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
          sql`SELECT address FROM ${returnedMails} UNION SELECT to_address FROM ${replies} WHERE kind IN ('answer', 'automatic-answer')`,
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

    /**
     * At start: subscriptions kept before a domain had one form (IDNA's ASCII, drizzle/0017's
     * release) are keyed by it, so caps, asks and forgetting find them by either spelling. Only
     * keys with letters outside ASCII can differ; one whose new key another row holds is left.
     */
    keyMailboxesInOneForm() {
      const old = sqlite.prepare("SELECT id, email FROM subscribers WHERE address_key GLOB '*[^ -~]*'").all() as Array<{
        id: number
        email: string
      }>
      const rekey = sqlite.prepare('UPDATE OR IGNORE subscribers SET address_key = ? WHERE id = ?')
      sqlite.transaction(() => {
        for (const row of old) rekey.run(personMailbox(row.email), row.id)
      })()
    },

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

export type People = ReturnType<typeof createPeople>
