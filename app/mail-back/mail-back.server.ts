import { and, count, eq, gte, inArray, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import {
  deliveries,
  mailboxMarks,
  mailSuppressions,
  replies,
  returnedMails,
  submissions,
  subscribers,
  type DeliveryRow,
  type SubmissionRow,
} from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { SubmissionEvents } from '#app/live/events.server'
import { mailboxKey } from '#app/leads/mailbox'
import type { Log } from '#app/log'
import { tellThread } from '#app/replies/threads.server'
import { replyLimits } from '#app/replies/reply'
import { contactLimits } from '#app/submissions/contact-fields'
import type { LeadQueue, SubmissionsService } from '#app/submissions/service.server'
import type { ReadBack } from './read-back.server'

/** Where the reading of one mailbox stands: the message it read is after `lastUid`. */
export interface Mark {
  mailbox: string
  uidValidity: number
  uid: number
}

/** Something a lead is owed when its visitor answers (the owner's mail, the phones, the webhook). */
export interface AnswerQueue {
  /** Inside the transaction that keeps the answer. */
  queueAnswer(lead: SubmissionRow, answerId: number, at: Date): void
}

/** What the site did with one message of the mailbox. */
export type Outcome = 'answer' | 'automatic-answer' | 'update-answer' | 'bounce' | 'complaint' | 'not ours'

// Temporary failures of one address within this window count as a permanent one from the third.
const temporaryWindowMs = 30 * 24 * 60 * 60 * 1000
const temporaryFailuresForGood = 3

/** The farm's mail a Message-ID names: a mail to a visitor (in `replies`), or one keyed in `deliveries`. */
type Sent =
  | { kind: 'visitor-mail'; delivery: DeliveryRow; submissionId: number; address: string }
  | { kind: 'owner-mail'; delivery: DeliveryRow; submissionId: number; address: null }
  | { kind: 'update-mail'; delivery: DeliveryRow; subscriberId: number; address: string; updateId: number }

/**
 * Acts on what the farm's mailbox receives about the mails the site sent: a visitor's answer joins
 * its lead's thread (and reopens it), a subscriber's answer to an update becomes a lead, a bounce
 * or a complaint is recorded and stops the farm mailing that address unasked. Each message is
 * acted on in the same transaction that moves the mailbox's mark past it, so none is acted on
 * twice. A message that names no mail the site sent is not the site's: it is left as it is.
 */
export function createMailBack({
  db,
  writes,
  events,
  submissions: leads,
  answerQueues,
  owed,
  now = () => new Date(),
  log,
}: {
  db: FarmDatabase
  writes: Writes
  events: SubmissionEvents
  submissions: Pick<SubmissionsService, 'receiveAnswerToUpdate'>
  answerQueues: AnswerQueue[]
  owed: () => void
  now?: () => Date
  log: Log
}) {
  function moveMark({ mailbox, uidValidity, uid }: Mark) {
    db.insert(mailboxMarks)
      .values({ mailbox, uidValidity, lastUid: uid, changedAt: now() })
      .onConflictDoUpdate({ target: mailboxMarks.mailbox, set: { uidValidity, lastUid: uid, changedAt: now() } })
      .run()
  }

  /** The first of these Message-IDs that the site sent, latest first; null when it sent none of them. */
  function sentMail(ids: string[]): Sent | null {
    for (const id of ids.slice(0, 100)) {
      const reply = db
        .select({ delivery: deliveries, submissionId: replies.submissionId, address: replies.toAddress })
        .from(replies)
        .innerJoin(deliveries, and(eq(deliveries.replyId, replies.id), eq(deliveries.kind, 'visitor-mail')))
        .where(eq(replies.messageId, id))
        .get()
      if (reply) return { kind: 'visitor-mail', ...reply }
      const key = /^<((?:lead|update)\.[0-9a-f]{32})@[^<>@\s]+>$/i.exec(id)?.[1]
      if (!key) continue
      const delivery = db.select().from(deliveries).where(eq(deliveries.receiptKey, key.toLowerCase())).get()
      if (delivery?.kind === 'owner-mail' && delivery.submissionId !== null) {
        return { kind: 'owner-mail', delivery, submissionId: delivery.submissionId, address: null }
      }
      if (delivery?.kind === 'update-mail' && delivery.subscriberId !== null && delivery.updateId !== null) {
        const to = db
          .select({ email: subscribers.email })
          .from(subscribers)
          .where(eq(subscribers.id, delivery.subscriberId))
          .get()
        if (to) {
          return {
            kind: 'update-mail',
            delivery,
            subscriberId: delivery.subscriberId,
            address: to.email,
            updateId: delivery.updateId,
          }
        }
      }
    }
    return null
  }

  /** Stops mailing an address unasked (updates, acknowledgements) until it writes again. */
  function suppress(addressKey: string, kind: 'bounce' | 'complaint', returnedMailId: number, words: string | null) {
    db.insert(mailSuppressions)
      .values({ addressKey, kind, returnedMailId, since: now() })
      .onConflictDoUpdate({ target: mailSuppressions.addressKey, set: { kind, returnedMailId, since: now() } })
      .run()
    db.update(subscribers)
      .set(
        kind === 'complaint'
          ? { status: 'unsubscribed', unsubscribedBy: 'them', unsubscribedAt: now() }
          : { status: 'undeliverable', lastError: words, unsubscribedAt: now() },
      )
      .where(and(eq(subscribers.addressKey, addressKey), inArray(subscribers.status, ['asked', 'subscribed'])))
      .run()
  }

  function recordReturned(
    read: Extract<ReadBack, { kind: 'bounce' | 'complaint' }>,
    sent: Sent,
    source: Buffer,
    mark: Mark,
  ) {
    const at = now()
    const updateId = sent.kind === 'update-mail' ? sent.updateId : null
    const kept = source.toString('utf8')
    // A report is only ever about the address the farm's mail went to: anyone who got one of its
    // mails could write a report naming another address, to stop the farm mailing someone else.
    const to = sent.address
    const named = read.kind === 'bounce' ? read.failures : []
    const theirs = to ? named.filter((failure) => mailboxKey(failure.address) === mailboxKey(to)) : named
    const reports =
      read.kind === 'complaint'
        ? [{ address: to ?? read.address, status: null, permanent: true, words: 'Reported as spam' }]
        : theirs.length > 0
          ? theirs
          : [
              {
                address: to ?? named[0]?.address ?? null,
                status: named[0]?.status ?? null,
                // Counted, never a stop on its own: the report did not name the address it was sent to.
                permanent: false,
                words: named[0]?.words ?? 'Returned without a reason',
              },
            ]
    db.transaction(() => {
      let bounced = false
      for (const report of reports.slice(0, 20)) {
        if (!report.address) continue
        const addressKey = mailboxKey(report.address)
        const row = db
          .insert(returnedMails)
          .values({
            kind: read.kind,
            deliveryId: sent.delivery.id,
            updateId,
            address: report.address,
            addressKey,
            permanent: report.permanent,
            status: report.status,
            words: report.words,
            source: kept,
            receivedAt: at,
          })
          .returning({ id: returnedMails.id })
          .get()
        // The owner's own address is never stopped: a bounce of their mail only marks it.
        if (sent.kind === 'owner-mail') continue
        if (read.kind === 'complaint') {
          suppress(addressKey, 'complaint', row.id, null)
          continue
        }
        bounced = true
        const [temporary] = db
          .select({ n: count() })
          .from(returnedMails)
          .where(
            and(
              eq(returnedMails.addressKey, addressKey),
              eq(returnedMails.kind, 'bounce'),
              eq(returnedMails.permanent, false),
              gte(returnedMails.receivedAt, new Date(at.getTime() - temporaryWindowMs)),
            ),
          )
          .all()
        if (report.permanent || (temporary?.n ?? 0) >= temporaryFailuresForGood) {
          suppress(addressKey, 'bounce', row.id, report.words)
        }
      }
      if (read.kind === 'bounce' && (bounced || sent.kind === 'owner-mail')) {
        const words = reports
          .map((report) => report.words)
          .join('; ')
          .slice(0, 1_000)
        db.update(deliveries)
          .set({ state: 'bounced', lastError: words })
          .where(eq(deliveries.id, sent.delivery.id))
          .run()
      }
      moveMark(mark)
    })
  }

  /** An answer to the farm's mail about a lead: into its thread, the lead back to New, the owner told. */
  function addAnswer(read: Extract<ReadBack, { kind: 'mail' }>, submissionId: number, mark: Mark): Outcome | null {
    const at = now()
    const written = db.transaction(() => {
      const [thread] = db.select({ n: count() }).from(replies).where(eq(replies.submissionId, submissionId)).all()
      if ((thread?.n ?? 0) >= replyLimits.perLead) return null
      const lead = db.select().from(submissions).where(eq(submissions.id, submissionId)).get()
      if (!lead) return null
      // The same mail twice (sent to two of the farm's addresses, or copied back) is one answer.
      if (
        read.messageId &&
        db.select({ id: replies.id }).from(replies).where(eq(replies.messageId, read.messageId)).get()
      ) {
        moveMark(mark)
        return 'repeated' as const
      }
      const sentAt = read.sentAt && read.sentAt.getTime() < at.getTime() ? read.sentAt : at
      const answer = db
        .insert(replies)
        .values({
          submissionId,
          kind: read.automatic ? 'automatic-answer' : 'answer',
          toAddress: read.from!.address,
          addressKey: mailboxKey(read.from!.address),
          text: read.text || '(No text)',
          messageId:
            read.messageId ?? `<read.${mark.uidValidity}.${mark.uid}@${mark.mailbox.replace(/[^\w.-]/g, '.')}>`,
          references: null,
          createdAt: sentAt,
          attachments: read.attachments,
        })
        .returning({ id: replies.id })
        .get()
      if (!read.automatic) {
        db.delete(mailSuppressions)
          .where(eq(mailSuppressions.addressKey, mailboxKey(read.from!.address)))
          .run()
        if (lead.status !== 'new') {
          db.update(submissions)
            .set({ status: 'new', statusChangedBy: null })
            .where(eq(submissions.id, submissionId))
            .run()
        }
        for (const queue of answerQueues) queue.queueAnswer(lead, answer.id, at)
      }
      moveMark(mark)
      return read.automatic ? ('automatic-answer' as const) : ('answer' as const)
    })
    if (written === null) return null
    if (written === 'repeated') return 'not ours'
    tellThread(db, events, submissionId)
    if (written === 'answer') owed()
    return written
  }

  return {
    /** Where reading this mailbox got to, or null before its first read. */
    markOf(mailbox: string): { uidValidity: number; lastUid: number } | null {
      return db.select().from(mailboxMarks).where(eq(mailboxMarks.mailbox, mailbox)).get() ?? null
    },

    /** Moves the mark without acting (a mailbox read for the first time starts from now; a message too big is the owner's). */
    async skip(mark: Mark): Promise<void> {
      await writes.whenFree(() => moveMark(mark))
    },

    /**
     * Acts on one message and moves the mark past it; returns what it was, or null when it was
     * the site's but could not be kept (its thread is full): the mark moves on, the mail stays.
     */
    async take(read: ReadBack, source: Buffer, mark: Mark): Promise<Outcome | null> {
      if (read.kind === 'bounce' || read.kind === 'complaint') {
        const sent = sentMail(read.about)
        if (!sent) {
          await writes.whenFree(() => moveMark(mark))
          return 'not ours'
        }
        await writes.whenFree(() => recordReturned(read, sent, source, mark))
        log.info({ kind: read.kind, delivery: sent.delivery.id }, `read back a ${read.kind}`)
        if (sent.kind === 'visitor-mail') tellThread(db, events, sent.submissionId)
        return read.kind
      }
      const sent = read.from ? sentMail(read.answers) : null
      if (!sent) {
        await writes.whenFree(() => moveMark(mark))
        return 'not ours'
      }
      if (sent.kind === 'update-mail') {
        if (read.automatic) {
          await writes.whenFree(() => moveMark(mark))
          return 'automatic-answer'
        }
        const subscriber = db.select().from(subscribers).where(eq(subscribers.id, sent.subscriberId)).get()
        const name = (read.from!.name || subscriber?.name || read.from!.address.split('@')[0]!).slice(
          0,
          contactLimits.name,
        )
        const message = [...(read.text || `(No text) ${read.subject}`)].slice(0, contactLimits.message).join('')
        const stored = await leads.receiveAnswerToUpdate(
          { name, email: read.from!.address, message },
          sent.updateId,
          () => moveMark(mark),
        )
        if (!stored.ok) {
          log.warn(
            { fields: Object.keys(stored.errors) },
            'an answer to an update could not be read as a message; it is left in the mailbox',
          )
          await writes.whenFree(() => moveMark(mark))
          return null
        }
        return 'update-answer'
      }
      const outcome = await writes.whenFree(() => addAnswer(read, sent.submissionId, mark))
      if (outcome === null) {
        log.warn(
          { lead: sent.submissionId },
          'an answer could not join its lead (its thread is full, or the lead is gone); it is left in the mailbox',
        )
        await writes.whenFree(() => moveMark(mark))
      }
      return outcome
    },
  }
}

export type MailBack = ReturnType<typeof createMailBack>

/**
 * A clean lead from an address the farm stopped mailing for a bounce: it wrote again, so it is
 * mailed again (and, if it had said yes to updates, gets them again). Put before every other
 * queue, so its acknowledgement goes. A complaint is never lifted this way.
 */
export function liftedByWritingAgain(db: FarmDatabase): LeadQueue {
  return {
    queueFor(row: SubmissionRow): void {
      if (row.spamReasons !== null) return
      const addressKey = mailboxKey(row.email)
      const lifted = db
        .delete(mailSuppressions)
        .where(and(eq(mailSuppressions.addressKey, addressKey), eq(mailSuppressions.kind, 'bounce')))
        .run()
      if (lifted.changes === 0) return
      db.update(subscribers)
        .set({ status: 'subscribed', lastError: null, unsubscribedAt: null })
        .where(
          and(
            eq(subscribers.addressKey, addressKey),
            eq(subscribers.status, 'undeliverable'),
            sql`${subscribers.subscribedAt} IS NOT NULL`,
          ),
        )
        .run()
    },
  }
}
