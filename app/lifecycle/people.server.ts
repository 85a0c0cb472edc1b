import { asc, eq, inArray, sql } from 'drizzle-orm'
import type { OpenDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import {
  erasures,
  outbox,
  pushMessages,
  replies,
  subscribers,
  submissions,
  updateMails,
  updates,
  webhookDeliveries,
} from '#app/data/schema'
import type { SubmissionEvents } from '#app/live/events.server'
import { leadPushMessage } from '#app/push/push-message'
import { mailboxKey } from '#app/submissions/contact-validation'
import type { ErasureList } from './erasures.server'
import { personKey } from './erasures.server'

/** How many times, a second apart, emptying the log is tried while another process reads. */
const mostLogTries = 600

const iso = (date: Date | null) => date?.toISOString() ?? null

/** A person's submissions: by their address, whatever its case (the index on lower(email)). */
const sentBy = (address: string) => sql`lower(${submissions.email}) = ${personKey(address)}`

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
  now = Date.now,
}: {
  database: Pick<OpenDatabase, 'db' | 'sqlite'>
  writes: Writes
  events: SubmissionEvents
  erasureList: ErasureList
  /** PUBLIC_URL, which the pushes' addresses begin with. */
  siteUrl: string | null
  now?: () => number
}) {
  const { db, sqlite } = database

  function subscriberOf(address: string) {
    return db
      .select()
      .from(subscribers)
      .where(eq(subscribers.addressKey, mailboxKey(address)))
      .get()
  }

  /** All they sent and all that was sent to them or about them, or null when the site holds nothing. */
  function exportOf(given: string) {
    const address = given.trim()
    const sent = db.select().from(submissions).where(sentBy(address)).orderBy(asc(submissions.id)).all()
    const subscriber = subscriberOf(address)
    if (sent.length === 0 && !subscriber) return null
    const ids = sent.map((row) => row.id)
    const bySubmission =
      <T extends { submissionId: number }>(rows: T[]) =>
      (id: number) =>
        rows.filter((row) => row.submissionId === id)
    const mailsTo = bySubmission(
      ids.length
        ? db.select().from(replies).where(inArray(replies.submissionId, ids)).orderBy(asc(replies.id)).all()
        : [],
    )
    const ownerMails = bySubmission(
      ids.length ? db.select().from(outbox).where(inArray(outbox.submissionId, ids)).orderBy(asc(outbox.id)).all() : [],
    )
    const posts = bySubmission(
      ids.length ? db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.submissionId, ids)).all() : [],
    )
    const pushes = bySubmission(
      ids.length ? db.select().from(pushMessages).where(inArray(pushMessages.submissionId, ids)).all() : [],
    )
    return {
      email: address,
      exportedAt: new Date(now()).toISOString(),
      submissions: sent.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        message: row.message,
        createdAt: iso(row.createdAt),
        status: row.status,
        spam: row.spamReasons,
        summary: row.aiResponse,
        analysis: row.analysis,
        mailsToThem: mailsTo(row.id).map((mail) => ({
          kind: mail.kind,
          to: mail.toAddress,
          text: mail.text,
          status: mail.status,
          messageId: mail.messageId,
          queuedAt: iso(mail.queuedAt),
          sentAt: iso(mail.sentAt),
          lastError: mail.lastError,
        })),
        mailsToTheOwner: ownerMails(row.id).map((mail) => ({
          status: mail.status,
          createdAt: iso(mail.createdAt),
          sentAt: iso(mail.sentAt),
        })),
        webhookPosts: posts(row.id).map((post) => ({
          webhookId: post.messageId,
          status: post.status,
          createdAt: iso(post.createdAt),
          sentAt: iso(post.sentAt),
        })),
        pushesToTheOwnersPhones: pushes(row.id).map((push) => ({
          status: push.status,
          createdAt: iso(push.createdAt),
          sentAt: iso(push.sentAt),
          payload: leadPushMessage(row, siteUrl),
        })),
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
                status: updateMails.status,
                sentAt: updateMails.sentAt,
                lastError: updateMails.lastError,
              })
              .from(updateMails)
              .innerJoin(updates, eq(updates.id, updateMails.updateId))
              .where(eq(updateMails.subscriberId, subscriber.id))
              .orderBy(asc(updateMails.id))
              .all()
              .map((mail) => ({ ...mail, sentAt: iso(mail.sentAt) })),
          }
        : null,
    }
  }

  /**
   * Deletes every row about the person in one transaction (their submissions take their mails,
   * pushes, posts and search entries with them; their subscriber row its update mails) and
   * records the erasure. Null when the site holds nothing about them.
   */
  function eraseRows(address: string, at: number): { ids: number[]; subscription: boolean } | null {
    return db.transaction((tx) => {
      const ids = tx
        .delete(submissions)
        .where(sentBy(address))
        .returning({ id: submissions.id })
        .all()
        .map((row) => row.id)
      const subscription =
        tx
          .delete(subscribers)
          .where(eq(subscribers.addressKey, mailboxKey(address)))
          .run().changes > 0
      if (ids.length === 0 && !subscription) return null
      tx.insert(erasures)
        .values({ addressHash: erasureList.hashOf(address), erasedAt: new Date(at) })
        .onConflictDoUpdate({ target: erasures.addressHash, set: { erasedAt: new Date(at) } })
        .run()
      return { ids, subscription }
    })
  }

  return {
    exportOf,

    /**
     * Forgets a person: their rows deleted, the erasure written to the list's file, the
     * write-ahead log emptied (it still held their rows' old pages), every tab told.
     */
    async forget(given: string): Promise<{ submissions: number; subscription: boolean } | null> {
      const address = given.trim()
      const at = now()
      const erased = await writes.whenFree(() => eraseRows(address, at))
      if (!erased) return null
      erasureList.recordInFile(erasureList.hashOf(address), at)
      emptyTheLog()
      if (erased.ids.length > 0) events.publish({ type: 'SUBMISSIONS_REMOVED', ids: erased.ids })
      return { submissions: erased.ids.length, subscription: erased.subscription }
    },

    /**
     * At start: forgets again everyone the list's file names whom the database does not know
     * as forgotten (a backup from before their erasure was restored). Returns how many.
     */
    reapplyErasures(): number {
      const missing = erasureList.reconcile()
      if (missing.size === 0) return 0
      const addresses = new Set([
        ...db
          .all<{ address: string }>(sql`SELECT DISTINCT lower(email) AS address FROM submissions`)
          .map((row) => row.address),
        ...db
          .select({ address: subscribers.email })
          .from(subscribers)
          .all()
          .map((row) => personKey(row.address)),
      ])
      let found = 0
      for (const address of addresses) {
        const at = missing.get(erasureList.hashOf(address))
        if (at === undefined) continue
        eraseRows(address, at)
        found++
      }
      // Those not in this database at all are recorded as forgotten too.
      for (const [hash, at] of missing) {
        db.insert(erasures)
          .values({ addressHash: hash, erasedAt: new Date(at) })
          .onConflictDoNothing()
          .run()
      }
      emptyTheLog()
      return found
    },
  }

  /**
   * Empties the write-ahead log, which still holds old copies of the pages the person's rows
   * were on. A reader in another process (a backup being copied) can hold it for a moment: then
   * it is tried again each second until done.
   */
  function emptyTheLog(tries = 0) {
    const [result] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>
    if (result?.busy === 0 || tries >= mostLogTries) return
    setTimeout(() => emptyTheLog(tries + 1), 1_000).unref()
  }
}

export type People = ReturnType<typeof createPeople>
