import { and, count, eq, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { submissions, subscribers } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { Log } from '#app/log'
import { contactLimits } from '#app/submissions/contact-validation'
import type { SubmissionsService } from '#app/submissions/service.server'
import type { Mark } from './mailbox-marks.server'
import type { ReadBack } from './read-back.server'
import type { Sent } from './sent-mails.server'

/** Answers one subscriber may send to one update that become leads; more stay in the mailbox. */
const mostAnswersPerUpdate = 3

/** A subscriber's answer to an update, made a lead. */
export function createUpdateAnswers({
  db,
  writes,
  leads,
  log,
  moveMark,
}: {
  db: FarmDatabase
  writes: Writes
  leads: Pick<SubmissionsService, 'receiveAnswerToUpdate'>
  log: Log
  moveMark: (mark: Mark) => void
}) {
  /** The lead an answer to an update makes; null when it is not kept (past the answers kept, or unreadable as a message). */
  return async function answerToUpdate(
    read: Extract<ReadBack, { kind: 'mail' }>,
    sent: Extract<Sent, { kind: 'update-mail' }>,
    mailId: string,
    mark: Mark,
  ): Promise<'not ours' | 'update-answer' | null> {
    const from = read.from!
    const [answered] = db
      .select({ n: count() })
      .from(submissions)
      .where(and(eq(submissions.answersUpdate, sent.updateId), sql`lower(${submissions.email}) = ${from.address}`))
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
    const name = (from.name || subscriber?.name || from.address.split('@')[0]!).slice(0, contactLimits.name)
    const message = [
      ...(read.tooLarge
        ? `(Too large to read here: the whole mail is in the farm’s mailbox) ${read.subject}`
        : read.text || `(No text) ${read.subject}`),
    ]
      .slice(0, contactLimits.message)
      .join('')
    const stored = await leads.receiveAnswerToUpdate(
      { name, email: from.address, message },
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
}
