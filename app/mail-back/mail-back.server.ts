import { createHash } from 'node:crypto'
import type { FarmDatabase } from '#app/data/database.server'
import type { SubmissionRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
import { tellThread } from '#app/replies/threads.server'
import type { LeadQueue, SubmissionsService } from '#app/submissions/service.server'
import { createAnswers, type AnswerQueue } from './answers.server'
import { createBounces, liftBounceStop } from './bounces.server'
import { createMailboxMarks, type Mark } from './mailbox-marks.server'
import { whatTheHeadersSay } from './mail-headers'
import type { ReadBack } from './read-back.server'
import { sentMail } from './sent-mails.server'
import { createUpdateAnswers } from './update-answers.server'

export type { AnswerQueue } from './answers.server'
export type { Mark } from './mailbox-marks.server'

/** What the site did with one message of the mailbox. */
export type Outcome = 'answer' | 'automatic-answer' | 'update-answer' | 'bounce' | 'complaint' | 'not ours'

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
  const { moveMark, markOf } = createMailboxMarks({ db, now })
  const recordReturned = createBounces({ db, now, moveMark })
  const addAnswer = createAnswers({ db, events, answerQueues, owed, now, log, moveMark })
  const answerToUpdate = createUpdateAnswers({ db, writes, leads, log, moveMark })

  return {
    markOf,

    /** What a message's headers say it may be to the site: an answer to a mail it sent, a report, or nothing (null). */
    concerns(headers: Map<string, string>): 'answer' | 'report' | null {
      const said = whatTheHeadersSay(headers)
      if (sentMail(db, said.answers) !== null) return 'answer'
      return said.mayBeReport ? 'report' : null
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
        const sent = sentMail(db, read.about)
        if (!sent) return notOurs()
        if (sent.address && forgottenSince(sent.address, sent.delivery.createdAt)) return notOurs()
        await writes.whenFree(() => recordReturned(read, sent, source, mark))
        log.info({ kind: read.kind, delivery: sent.delivery.id }, `read back a ${read.kind}`)
        if (sent.kind === 'visitor-mail') tellThread(db, events, sent.submissionId)
        return read.kind
      }
      const sent = read.from ? sentMail(db, read.answers) : null
      if (!sent) return notOurs()
      if (forgottenSince(read.from!.address, read.sentAt ?? new Date(0))) return notOurs()
      // Its Message-ID, or its bytes' hash when it has none: the same mail read again is known.
      const mailId = read.messageId ?? `<sha256.${createHash('sha256').update(source).digest('hex')}@mailbox>`
      if (sent.kind === 'update-mail') {
        if (read.automatic) return notOurs()
        return answerToUpdate(read, sent, mailId, mark)
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
      liftBounceStop(db, row.email)
    },
  }
}
