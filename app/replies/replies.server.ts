import { and, asc, count, eq, ne } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { deliveries, farmTexts, replies, savedReplies, submissions } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { deliveryRecord } from '#app/delivery/record.server'
import { refuse, type Refusal } from '#app/http/refusal.server'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Submission } from '#app/leads/lead'
import { mailboxKey } from '#app/leads/mailbox'
import { acknowledgementKey, defaultAcknowledgement } from './acknowledgement.server'
import {
  acknowledgementPlaceholders,
  fillPlaceholders,
  placeholderError,
  productsInWords,
  replyPlaceholders,
} from '#app/writing/placeholders'
import type { Reply } from '#app/leads/lead'
import { oneLineBreak, writingError } from '#app/writing/writing'
import { replyLimits, replyTextError } from './reply'
import type { VisitorMails } from './reply-delivery.server'
import { newMessageId } from './reply-mail.server'
import { storedReply, submissionWithThread, tellThread, toReply, wholeThread } from './threads.server'

/** What the owner keeps ready to send: at most this many, each at most this long. */
export const savedReplyLimits = { count: 25, name: 60, text: 4_000 } as const

export interface SavedReply {
  id: number
  name: string
  text: string
}

type Answer<T> = ({ ok: true } & T) | Refusal

/**
 * Answering leads: the owner's replies, each stored with its outbox entry in one transaction
 * (and the lead marked handled), failed ones retried or dismissed, the saved replies and the
 * acknowledgement's text. Every change is told to the watchers with the lead's thread.
 */
export function createReplies({
  db,
  events,
  writes,
  farmName,
  from,
  visitorMails,
  acknowledging,
  now = () => new Date(),
}: {
  db: FarmDatabase
  events: SubmissionEvents
  writes: Writes
  farmName: () => string
  /** The address mails go out from now; its domain names their Message-IDs. */
  from: () => string
  /** Called once a mail is queued, so the sender looks at once. */
  visitorMails: VisitorMails
  /** Whether visitors get the acknowledgement (VISITOR_ACK, with mail set up). */
  acknowledging: () => boolean
  now?: () => Date
}) {
  const tell = (submissionId: number) => tellThread(db, events, submissionId)

  const savedNameKey = (name: string) => name.trim().toLocaleLowerCase('en')

  function savedReplyError(name: string, text: string, id?: number): string | null {
    const trimmed = name.trim()
    if (/[\r\n]/.test(trimmed)) return 'A saved reply’s name is one line.'
    const nameProblem = writingError(trimmed, 'a name for the saved reply', savedReplyLimits.name)
    if (nameProblem) return nameProblem
    const textProblem = writingError(text, 'the saved reply’s text', savedReplyLimits.text)
    if (textProblem) return textProblem
    const placeholders = placeholderError(text, replyPlaceholders)
    if (placeholders) return placeholders
    const same = db
      .select({ id: savedReplies.id })
      .from(savedReplies)
      .where(and(eq(savedReplies.nameKey, savedNameKey(name)), id === undefined ? undefined : ne(savedReplies.id, id)))
      .get()
    if (same) return `There is already a saved reply named “${trimmed}”. Choose another name.`
    return null
  }

  return {
    /**
     * Queues the owner's reply to a lead: its mail in the outbox and the lead marked handled, in
     * one transaction. A saved reply's text, filled in for the lead, stands in for a blank text
     * (how a form without JavaScript uses one). The same request key twice is the same reply.
     */
    async send({
      submissionId,
      text,
      savedReplyId,
      requestKey,
      by,
      mayStore = () => null,
    }: {
      submissionId: number
      text: string
      savedReplyId?: number
      requestKey?: string
      /** Who of the team writes it (null: an open inbox). */
      by: number | null
      /** Asked last, only when a new reply would be stored: the reply limit's say. */
      mayStore?: () => Refusal | null
    }): Promise<Answer<{ reply: Reply; submission: Submission; repeated: boolean }>> {
      const written = await writes.whenFree(() =>
        db.transaction((tx): Answer<{ replyId: number; repeated: boolean }> => {
          const lead = tx.select().from(submissions).where(eq(submissions.id, submissionId)).get()
          if (!lead) return refuse(404, `There is no submission ${submissionId}.`)
          if (requestKey) {
            const earlier = tx.select().from(replies).where(eq(replies.requestKey, requestKey)).get()
            if (earlier && earlier.submissionId === submissionId)
              return { ok: true, replyId: earlier.id, repeated: true }
            if (earlier) return refuse(409, 'That request key was used for a reply to another submission.')
          }
          if (lead.spamReasons) {
            return refuse(409, 'This message is in the spam folder. Mark it ‘Not spam’ before replying to it.')
          }
          let words = oneLineBreak(text)
          if (words.trim() === '' && savedReplyId !== undefined) {
            const saved = tx.select().from(savedReplies).where(eq(savedReplies.id, savedReplyId)).get()
            if (!saved) return refuse(404, 'That saved reply is no longer there.')
            words = fillPlaceholders(saved.text, {
              name: lead.name,
              farm: farmName(),
              products: productsInWords(lead.analysis?.products ?? []),
            })
          }
          const problem = replyTextError(words)
          if (problem) return refuse(400, problem)
          const thread = tx
            .select({ messageId: replies.messageId })
            .from(replies)
            .where(eq(replies.submissionId, submissionId))
            .orderBy(asc(replies.id))
            .all()
          if (thread.length >= replyLimits.perLead) {
            return refuse(
              409,
              `This conversation already has ${replyLimits.perLead} mails. Write to ${lead.email} from your own mailbox.`,
            )
          }
          const limited = mayStore()
          if (limited) return limited
          const at = now()
          const row = tx
            .insert(replies)
            .values({
              submissionId,
              kind: 'reply',
              toAddress: lead.email,
              addressKey: mailboxKey(lead.email),
              text: words,
              messageId: newMessageId(from()),
              references: thread.length > 0 ? thread.map(({ messageId }) => messageId).join(' ') : null,
              createdAt: at,
              requestKey: requestKey ?? null,
              sentBy: by,
            })
            .returning({ id: replies.id })
            .get()
          visitorMails.owe(tx, row.id, submissionId, at)
          if (lead.status !== 'handled') {
            tx.update(submissions).set({ status: 'handled' }).where(eq(submissions.id, submissionId)).run()
          }
          return { ok: true, replyId: row.id, repeated: false }
        }),
      )
      if (!written.ok) return written
      if (!written.repeated) visitorMails.queued()
      const submission = written.repeated ? submissionWithThread(db, submissionId)! : tell(submissionId)!
      const reply = toReply(storedReply(db, written.replyId)!, submission.email)
      return { ok: true, reply, submission, repeated: written.repeated }
    },

    /** Every mail of a lead's conversation, oldest first; null when there is no such lead. */
    history(submissionId: number): Reply[] | null {
      const lead = db.select({ id: submissions.id }).from(submissions).where(eq(submissions.id, submissionId)).get()
      return lead ? wholeThread(db, submissionId) : null
    },

    /** A failed mail tried again from now, or set aside: either way the badge no longer counts it. */
    async settleFailed(
      submissionId: number,
      replyId: number,
      action: 'retry' | 'dismiss',
    ): Promise<Answer<{ reply: Reply; submission: Submission }>> {
      const mail = and(
        eq(deliveries.replyId, replyId),
        eq(deliveries.submissionId, submissionId),
        eq(deliveries.kind, 'visitor-mail'),
      )!
      const record = deliveryRecord(db)
      const settled = await writes.whenFree(() =>
        action === 'retry' ? record.again(mail, now()) : record.setAside(mail, now()),
      )
      if (settled === 0) {
        const exists = db
          .select({ id: replies.id })
          .from(replies)
          .where(and(eq(replies.id, replyId), eq(replies.submissionId, submissionId)))
          .get()
        if (!exists) return refuse(404, `There is no reply ${replyId} to submission ${submissionId}.`)
        return refuse(409, 'Only a mail that failed can be tried again or dismissed.')
      }
      if (action === 'retry') visitorMails.queued()
      const submission = tell(submissionId)!
      return { ok: true, reply: toReply(storedReply(db, replyId)!, submission.email), submission }
    },

    saved: {
      list(): SavedReply[] {
        return db
          .select({ id: savedReplies.id, name: savedReplies.name, text: savedReplies.text })
          .from(savedReplies)
          .orderBy(asc(savedReplies.nameKey))
          .all()
      },

      /** Creates a saved reply, or changes the one with `id`; refused with the reason when it cannot be saved. */
      async save({ id, name, text: typed }: { id?: number; name: string; text: string }): Promise<Answer<object>> {
        const text = oneLineBreak(typed)
        return writes.whenFree(() =>
          db.transaction((tx): Answer<object> => {
            const problem = savedReplyError(name, text, id)
            if (problem) return refuse(400, problem)
            const values = {
              name: name.trim(),
              nameKey: savedNameKey(name),
              text,
              updatedAt: now(),
            }
            if (id !== undefined) {
              const changed = tx.update(savedReplies).set(values).where(eq(savedReplies.id, id)).run()
              return changed.changes > 0 ? { ok: true } : refuse(404, 'That saved reply is no longer there.')
            }
            const [held] = tx.select({ count: count() }).from(savedReplies).all()
            if ((held?.count ?? 0) >= savedReplyLimits.count) {
              return refuse(409, `You can keep at most ${savedReplyLimits.count} saved replies. Delete one first.`)
            }
            tx.insert(savedReplies).values(values).run()
            return { ok: true }
          }),
        )
      },

      async remove(id: number): Promise<Answer<object>> {
        const removed = await writes.whenFree(() => db.delete(savedReplies).where(eq(savedReplies.id, id)).run())
        return removed.changes > 0 ? { ok: true } : refuse(404, 'That saved reply is no longer there.')
      },
    },

    acknowledgement: {
      /** Whether it is sent at all. */
      get on() {
        return acknowledging()
      },

      /** The text every acknowledgement is sent with, placeholders unfilled. */
      text(): string {
        return (
          db.select({ text: farmTexts.text }).from(farmTexts).where(eq(farmTexts.key, acknowledgementKey)).get()
            ?.text ?? defaultAcknowledgement
        )
      },

      async setText(typed: string): Promise<Answer<object>> {
        const text = oneLineBreak(typed)
        const written = writingError(text, 'the acknowledgement’s text', savedReplyLimits.text)
        if (written) return refuse(400, written)
        const problem = placeholderError(text, acknowledgementPlaceholders)
        if (problem) {
          return refuse(
            400,
            `${problem} It goes to whoever typed the address, so it never repeats anything they typed, not even a name.`,
          )
        }
        const values = { key: acknowledgementKey, text, updatedAt: now() }
        await writes.whenFree(() =>
          db.insert(farmTexts).values(values).onConflictDoUpdate({ target: farmTexts.key, set: values }).run(),
        )
        return { ok: true }
      },
    },
  }
}

export type Replies = ReturnType<typeof createReplies>
