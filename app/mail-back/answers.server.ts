import { count, eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { replies, submissions, type SubmissionRow } from '#app/data/schema'
import type { SubmissionEvents } from '#app/live/events.server'
import { mailboxKey } from '#app/leads/mailbox'
import type { Log } from '#app/log'
import { tellThread } from '#app/replies/threads.server'
import { replyLimits } from '#app/replies/reply'
import { liftBounceStop } from './bounces.server'
import type { Mark } from './mailbox-marks.server'
import type { ReadBack } from './read-back.server'

/** Something a lead is owed when its visitor answers (the owner's mail, the phones, the webhook). */
export interface AnswerQueue {
  /** Inside the transaction that keeps the answer. */
  queueAnswer(lead: SubmissionRow, answerId: number, at: Date): void
}

/** A visitor's answer to the farm's mail about a lead, joined to its card. */
export function createAnswers({
  db,
  events,
  answerQueues,
  owed,
  now,
  log,
  moveMark,
}: {
  db: FarmDatabase
  events: SubmissionEvents
  answerQueues: AnswerQueue[]
  owed: () => void
  now: () => Date
  log: Log
  moveMark: (mark: Mark) => void
}) {
  /** An answer to the farm's mail about a lead: into its thread, the lead back to New, the owner told. */
  return function addAnswer(
    read: Extract<ReadBack, { kind: 'mail' }>,
    submissionId: number,
    mailId: string,
    mark: Mark,
  ) {
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
          text: read.tooLarge ? read.subject : read.text || '(No text)',
          tooLarge: read.tooLarge,
          messageId: mailId,
          references: null,
          createdAt: sentAt,
          attachments: read.attachments,
        })
        .returning({ id: replies.id })
        .get()
      if (read.automatic) return 'automatic-answer' as const
      // Written again from the lead's own address: a bounce's stop is over.
      if (mailboxKey(from.address) === mailboxKey(lead.email)) liftBounceStop(db, from.address)
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
}
