import { createHash } from 'node:crypto'
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
import { deliveryRecord } from '#app/delivery/record.server'
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
  forgottenSince,
  owed,
  now = () => new Date(),
  log,
}: {
  db: FarmDatabase
  writes: Writes
  events: SubmissionEvents
  submissions: Pick<SubmissionsService, 'receiveAnswerToUpdate'>
  answerQueues: AnswerQueue[]
  /** Whether the site was made to forget this address at or after the time (app/lifecycle). */
  forgottenSince: (address: string, at: Date) => boolean
  owed: () => void
  now?: () => Date
  log: Log
}) {
  const record = deliveryRecord(db)

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

  /**
   * A bounce or complaint of one of the farm's mails, recorded once per mail (a report sent again,
   * or forged again, adds nothing), only ever about the address that mail went to: anyone who got
   * one of the farm's mails could write a report naming someone else. A bounce of the owner's own
   * mail only marks that mail: the owner is never stopped, and no stranger's words are kept.
   */
  function recordReturned(
    read: Extract<ReadBack, { kind: 'bounce' | 'complaint' }>,
    sent: Sent,
    source: Buffer,
    mark: Mark,
  ) {
    const at = now()
    db.transaction(() => {
      moveMark(mark)
      const failure =
        read.kind === 'bounce'
          ? (read.failures.find(
              (each) => sent.address !== null && mailboxKey(each.address) === mailboxKey(sent.address),
            ) ??
              // A report that does not name the address it came back from is counted, never a stop on its own.
              { ...(read.failures[0] ?? { status: null, words: 'Returned without a reason' }), permanent: false })
          : null
      if (sent.kind === 'owner-mail') {
        if (failure) record.bounced(sent.delivery.id, failure.words)
        return
      }
      const addressKey = mailboxKey(sent.address)
      const row = db
        .insert(returnedMails)
        .values({
          kind: read.kind,
          deliveryId: sent.delivery.id,
          updateId: sent.kind === 'update-mail' ? sent.updateId : null,
          address: sent.address,
          addressKey,
          permanent: failure ? failure.permanent : true,
          status: failure?.status ?? null,
          words: failure ? failure.words : 'Reported as spam',
          source: source.toString('utf8'),
          receivedAt: at,
        })
        .onConflictDoNothing()
        .returning({ id: returnedMails.id })
        .get()
      if (!row) return
      if (!failure) return suppress(addressKey, 'complaint', row.id, null)
      record.bounced(sent.delivery.id, failure.words)
      // Temporary failures count by the mails that failed (one row each), within the window.
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
      if (failure.permanent || (temporary?.n ?? 0) >= temporaryFailuresForGood) {
        suppress(addressKey, 'bounce', row.id, failure.words)
      }
    })
  }

  /** An answer to the farm's mail about a lead: into its thread, the lead back to New, the owner told. */
  function addAnswer(read: Extract<ReadBack, { kind: 'mail' }>, submissionId: number, mailId: string, mark: Mark) {
    const at = now()
    const from = read.from!
    const written = db.transaction(() => {
      moveMark(mark)
      const lead = db.select().from(submissions).where(eq(submissions.id, submissionId)).get()
      if (!lead) return 'gone' as const
      const [thread] = db.select({ n: count() }).from(replies).where(eq(replies.submissionId, submissionId)).all()
      if ((thread?.n ?? 0) >= replyLimits.perLead) return 'full' as const
      // The same mail twice (sent to two of the farm's addresses, or moved back into the folder) is one answer.
      if (db.select({ id: replies.id }).from(replies).where(eq(replies.messageId, mailId)).get())
        return 'repeated' as const
      const sentAt = read.sentAt && read.sentAt.getTime() < at.getTime() ? read.sentAt : at
      const answer = db
        .insert(replies)
        .values({
          submissionId,
          kind: read.automatic ? 'automatic-answer' : 'answer',
          toAddress: from.address,
          addressKey: mailboxKey(from.address),
          text: read.text || '(No text)',
          messageId: mailId,
          references: null,
          createdAt: sentAt,
          attachments: read.attachments,
        })
        .returning({ id: replies.id })
        .get()
      if (read.automatic) return 'automatic-answer' as const
      // Written again from the lead's own address: a bounce's stop is over (a complaint's never is this way).
      if (mailboxKey(from.address) === mailboxKey(lead.email)) {
        db.delete(mailSuppressions)
          .where(and(eq(mailSuppressions.addressKey, mailboxKey(from.address)), eq(mailSuppressions.kind, 'bounce')))
          .run()
      }
      if (lead.status !== 'new') {
        db.update(submissions)
          .set({ status: 'new', statusChangedBy: null })
          .where(eq(submissions.id, submissionId))
          .run()
      }
      for (const queue of answerQueues) queue.queueAnswer(lead, answer.id, at)
      return 'answer' as const
    })
    if (written === 'gone' || written === 'full') {
      log.warn({ lead: submissionId, why: written }, 'an answer could not join its lead; it is left in the mailbox')
      return null
    }
    if (written === 'repeated') return 'not ours'
    tellThread(db, events, submissionId)
    if (written === 'answer') owed()
    return written
  }

  /** Answers one subscriber may send to one update that become leads; more stay in the mailbox. */
  const mostAnswersPerUpdate = 3

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
     * Acts on one message and moves the mark past it, in one transaction; returns what it was, or
     * null when it was the site's but is not kept (its thread is full, its lead gone): the mark
     * moves on, the mail stays. A message from or about someone the site was made to forget after
     * it was written (a restored backup reads their mail again) is not kept either.
     */
    async take(read: ReadBack, source: Buffer, mark: Mark): Promise<Outcome | null> {
      const notOurs = async () => {
        await writes.whenFree(() => moveMark(mark))
        return 'not ours' as const
      }
      if (read.kind === 'notice') return notOurs()
      if (read.kind === 'bounce' || read.kind === 'complaint') {
        const sent = sentMail(read.about)
        if (!sent) return notOurs()
        if (sent.address && forgottenSince(sent.address, sent.delivery.createdAt)) return notOurs()
        await writes.whenFree(() => recordReturned(read, sent, source, mark))
        log.info({ kind: read.kind, delivery: sent.delivery.id }, `read back a ${read.kind}`)
        if (sent.kind === 'visitor-mail') tellThread(db, events, sent.submissionId)
        return read.kind
      }
      const sent = read.from ? sentMail(read.answers) : null
      if (!sent) return notOurs()
      if (forgottenSince(read.from!.address, read.sentAt ?? new Date(0))) return notOurs()
      // Its Message-ID, or its bytes' hash when it has none: the same mail read again is known.
      const mailId = read.messageId ?? `<sha256.${createHash('sha256').update(source).digest('hex')}@mailbox>`
      if (sent.kind === 'update-mail') {
        if (read.automatic) return notOurs()
        const [answered] = db
          .select({ n: count() })
          .from(submissions)
          .where(
            and(eq(submissions.answersUpdate, sent.updateId), sql`lower(${submissions.email}) = ${read.from!.address}`),
          )
          .all()
        if ((answered?.n ?? 0) >= mostAnswersPerUpdate) {
          log.warn(
            { update: sent.updateId },
            'a subscriber answered this update more times than are kept; left in the mailbox',
          )
          await writes.whenFree(() => moveMark(mark))
          return null
        }
        const subscriber = db.select().from(subscribers).where(eq(subscribers.id, sent.subscriberId)).get()
        const name = (read.from!.name || subscriber?.name || read.from!.address.split('@')[0]!).slice(
          0,
          contactLimits.name,
        )
        const message = [...(read.text || `(No text) ${read.subject}`)].slice(0, contactLimits.message).join('')
        const stored = await leads.receiveAnswerToUpdate(
          { name, email: read.from!.address, message },
          { update: sent.updateId, mailId },
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
        return 'repeated' in stored ? 'not ours' : 'update-answer'
      }
      return writes.whenFree(() => addAnswer(read, sent.submissionId, mailId, mark))
    },
  }
}

export type MailBack = ReturnType<typeof createMailBack>

/**
 * A clean lead from an address the farm stopped mailing for a bounce: it wrote again, so it is
 * acknowledged again. Put before every other queue, so its acknowledgement goes. Its subscription
 * stays stopped (anyone can type an address into the form): the owner may undo that. A complaint
 * is never lifted this way.
 */
export function liftedByWritingAgain(db: FarmDatabase): LeadQueue {
  return {
    queueFor(row: SubmissionRow): void {
      if (row.spamReasons !== null) return
      db.delete(mailSuppressions)
        .where(and(eq(mailSuppressions.addressKey, mailboxKey(row.email)), eq(mailSuppressions.kind, 'bounce')))
        .run()
    },
  }
}
