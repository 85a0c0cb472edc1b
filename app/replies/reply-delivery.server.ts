import { and, asc, count, eq, lte, min } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { replies, submissions } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { createAcceptedLedger } from '#app/delivery/accepted.server'
import { gaveUpWords, hasGivenUp, retryDelayMs } from '#app/delivery/backoff'
import { soonest } from '#app/delivery/rounds.server'
import { refusedForGood, serverWords, smtpVerdict } from '#app/delivery/smtp-refusals'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
import type { MailQueue } from '#app/outbox/outbox.server'
import { visitorMail, type VisitorMailSettings } from './reply-mail.server'
import { tellThread } from './threads.server'

const mostPerRound = 40

/**
 * Delivers the mails to visitors (replies and acknowledgements) in the outbox sender's rounds,
 * through its transport. Each is marked sent only once the server accepted it and never sent
 * again after; one the server refuses (5xx) fails with the server's words; one it cannot take
 * now waits and is tried again (NOTIFY_RETRY_SECONDS, doubling) for up to a day. Every change of
 * state goes to the watchers, with the submission's thread.
 */
export function createReplyDelivery({
  db,
  events,
  writes,
  log,
  settings,
  retryBaseMs,
  now = Date.now,
}: {
  db: FarmDatabase
  events: SubmissionEvents
  writes: Writes
  log: Log
  settings: VisitorMailSettings
  retryBaseMs: number
  now?: () => number
}): MailQueue {
  const accepted = createAcceptedLedger<{ id: number; submissionId: number; at: Date }>({
    mark: ({ id, submissionId, at }) => {
      db.update(replies).set({ status: 'sent', sentAt: at, lastError: null }).where(eq(replies.id, id)).run()
      tell(submissionId)
    },
    ids: ({ id }) => [id],
    writes,
    log,
    what: 'a mail to a visitor',
  })

  const tell = (submissionId: number) => void tellThread(db, events, submissionId)

  async function settle(id: number, change: Partial<typeof replies.$inferInsert>) {
    await writes.whenFree(() => db.update(replies).set(change).where(eq(replies.id, id)).run())
  }

  return {
    backlog() {
      const [row] = db
        .select({ unsent: count(), oldest: min(replies.createdAt) })
        .from(replies)
        .where(eq(replies.status, 'queued'))
        .all()
      return { unsent: row?.unsent ?? 0, oldest: row?.oldest ?? null }
    },

    async deliverDue(send) {
      accepted.markHeld()
      const at = now()
      const held = accepted.held()
      const due = db
        .select({ reply: replies, lead: { message: submissions.message, createdAt: submissions.createdAt } })
        .from(replies)
        .innerJoin(submissions, eq(submissions.id, replies.submissionId))
        .where(and(eq(replies.status, 'queued'), lte(replies.nextAttemptAt, new Date(at))))
        .orderBy(asc(replies.id))
        .limit(mostPerRound)
        .all()
        .filter(({ reply }) => !held.has(reply.id))
      // Once the server cannot be reached, the rest of the round waits too instead of trying each.
      let unreachable: string | null = null
      for (const { reply, lead } of due) {
        if (hasGivenUp(reply.queuedAt.getTime(), at)) {
          await settle(reply.id, { status: 'failed', lastError: gaveUpWords(reply.lastError) })
          log.error({ reply: reply.id, lead: reply.submissionId }, 'gave up mailing the visitor after a day of trying')
          tell(reply.submissionId)
          continue
        }
        if (unreachable === null) {
          try {
            await send(visitorMail(reply, lead, settings))
            await accepted.accepted({ id: reply.id, submissionId: reply.submissionId, at: new Date(now()) })
            continue
          } catch (error) {
            if (refusedForGood(smtpVerdict(error))) {
              const reason = serverWords(error)
              await settle(reply.id, { status: 'failed', lastError: reason })
              log.error(
                { reply: reply.id, lead: reply.submissionId, reason },
                'the mail server refused a mail to a visitor',
              )
              tell(reply.submissionId)
              continue
            }
            unreachable = serverWords(error)
            log.warn({ reason: unreachable }, 'could not mail a visitor; trying again later')
          }
        }
        await settle(reply.id, {
          attempts: reply.attempts + 1,
          nextAttemptAt: new Date(now() + retryDelayMs(retryBaseMs, reply.attempts + 1)),
          lastError: unreachable,
        })
        tell(reply.submissionId)
      }
      // Rows accepted but not yet marked are due on paper: look again in a while, not at once.
      if (accepted.holding) return now() + 1_000
      return soonest(db, replies, replies.nextAttemptAt, eq(replies.status, 'queued'))
    },
  }
}
