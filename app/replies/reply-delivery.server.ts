import { and, asc, count, eq, lte, min } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { replies, submissions } from '#app/data/schema'
import { isBusy, type Writes } from '#app/data/writes.server'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
import { isPermanentRefusal, serverWords } from '#app/outbox/mail-refusals'
import { retryDelayMs, type MailQueue } from '#app/outbox/outbox.server'
import { soonest } from '#app/outbox/rounds.server'
import { visitorMail, type VisitorMailSettings } from './reply-mail.server'
import { tellThread } from './threads.server'

const dayMs = 24 * 60 * 60 * 1000
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
  // Accepted by the server, not yet marked (another process held the database): never sent again.
  let acceptedUnmarked: Array<{ id: number; submissionId: number; at: Date }> = []

  /** Marks what was accepted and tells the watchers; throws SQLite's busy error while another process holds the lock. */
  function markAccepted() {
    let busy: unknown = null
    const marked: number[] = []
    acceptedUnmarked = acceptedUnmarked.filter(({ id, submissionId, at }) => {
      try {
        db.update(replies).set({ status: 'sent', sentAt: at, lastError: null }).where(eq(replies.id, id)).run()
        marked.push(submissionId)
        return false
      } catch (error) {
        if (!isBusy(error)) throw error
        busy = error
        return true
      }
    })
    for (const submissionId of new Set(marked)) tell(submissionId)
    if (busy) throw busy
  }

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
      try {
        markAccepted()
      } catch (error) {
        if (!isBusy(error)) throw error
      }
      const at = now()
      const held = new Set(acceptedUnmarked.map(({ id }) => id))
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
        if (at - reply.queuedAt.getTime() >= dayMs) {
          await settle(reply.id, {
            status: 'failed',
            lastError: `Gave up after a day of trying. ${reply.lastError ?? ''}`.trim(),
          })
          log.error({ reply: reply.id, lead: reply.submissionId }, 'gave up mailing the visitor after a day of trying')
          tell(reply.submissionId)
          continue
        }
        if (unreachable === null) {
          try {
            await send(visitorMail(reply, lead, settings))
            acceptedUnmarked.push({ id: reply.id, submissionId: reply.submissionId, at: new Date(now()) })
            await writes.whenFree(markAccepted).catch((error: unknown) => {
              log.warn({ err: error }, 'a mail to a visitor went out but is not marked sent yet; marking it next round')
            })
            continue
          } catch (error) {
            if (isPermanentRefusal(error)) {
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
      if (acceptedUnmarked.length > 0) return now() + 1_000
      return soonest(db, replies, replies.nextAttemptAt, eq(replies.status, 'queued'))
    },
  }
}
