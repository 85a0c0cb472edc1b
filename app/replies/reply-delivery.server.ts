import { asc, eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { deliveries, replies, submissions } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { createAcceptedLedger } from '#app/delivery/accepted.server'
import { hasGivenUp, retryDelayMs } from '#app/delivery/backoff'
import { owedSinceLastLook, type DeliveryEngine } from '#app/delivery/engine.server'
import { deliveryRecord, dueOf, owe, soonestDue } from '#app/delivery/record.server'
import { refusedForGood, serverWords, smtpVerdict } from '#app/delivery/smtp-refusals'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
import { visitorMail, type VisitorMailSettings } from './reply-mail.server'
import { tellThread } from './threads.server'

const mostPerRound = 40

/** Owes mails to visitors without looking for them: what the sender below, and a test, build on. */
export const keptVisitorMails = (engine: Pick<DeliveryEngine, 'owed'>): VisitorMails => ({
  owe: (tx, replyId, submissionId, at) => owe(tx, { kind: 'visitor-mail', replyId, submissionId }, at),
  queued: engine.owed,
})

/** Where the mails to visitors are owed: by replies and acknowledgements, in their own transactions. */
export interface VisitorMails {
  /** Owes the mail of a reply just written, in the same transaction. */
  owe(tx: Pick<FarmDatabase, 'insert'>, replyId: number, submissionId: number, at: Date): void
  /** After the commit: one was owed, or queued again (the owner's 'Try again'). */
  queued(): void
}

/**
 * Delivers the mails to visitors (replies and acknowledgements) on the delivery engine. Each is
 * marked sent only once the server accepted it and never sent again after; one the server refuses
 * (5xx) fails with the server's words; one it cannot take now waits and is tried again
 * (NOTIFY_RETRY_SECONDS, doubling) for up to a day. Every change of state goes to the watchers,
 * with the submission's thread.
 */
export function createReplyDelivery({
  engine,
  db,
  events,
  writes,
  log,
  settings,
  retryBaseMs,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  events: SubmissionEvents
  writes: Writes
  log: Log
  /** The mail server and who mails now: null while mail is not set up (what is owed waits). */
  settings: () => (VisitorMailSettings & { smtpUrl: string }) | null
  retryBaseMs: number
}) {
  const { now } = engine
  const transport = engine.smtp()
  const record = deliveryRecord(db)
  const tell = (submissionId: number) => void tellThread(db, events, submissionId)
  const accepted = createAcceptedLedger<{ id: number; submissionId: number; at: Date }>({
    mark: ({ id, submissionId, at }) => {
      record.sent([id], at)
      tell(submissionId)
    },
    ids: ({ id }) => [id],
    writes,
    log,
    what: 'a mail to a visitor',
  })

  async function deliverDue(): Promise<number | null> {
    accepted.markHeld()
    const current = settings()
    if (!current) return null
    const at = now()
    const held = accepted.held()
    const due = db
      .select({
        delivery: deliveries,
        reply: replies,
        lead: { message: submissions.message, createdAt: submissions.createdAt },
      })
      .from(deliveries)
      .innerJoin(replies, eq(replies.id, deliveries.replyId))
      .innerJoin(submissions, eq(submissions.id, replies.submissionId))
      .where(dueOf('visitor-mail', new Date(at)))
      .orderBy(asc(deliveries.id))
      .limit(mostPerRound)
      .all()
      .filter(({ delivery }) => !held.has(delivery.id))
    // Once the server cannot be reached, the rest of the round waits too instead of trying each.
    let unreachable: string | null = null
    for (const { delivery, reply, lead } of due) {
      // Stopping: what is left stays due for the next start, never cut off half-sent.
      if (engine.stopping) break
      if (hasGivenUp(delivery.failingSince, at)) {
        await writes.whenFree(() => record.gaveUp([delivery]))
        log.error({ reply: reply.id, lead: reply.submissionId }, 'gave up mailing the visitor after a day of trying')
        tell(reply.submissionId)
        continue
      }
      if (unreachable === null) {
        try {
          await transport.send(current.smtpUrl, visitorMail(reply, lead, current))
          await accepted.accepted({ id: delivery.id, submissionId: reply.submissionId, at: new Date(now()) })
          continue
        } catch (error) {
          if (refusedForGood(smtpVerdict(error))) {
            const reason = serverWords(error)
            await writes.whenFree(() => record.failed([delivery.id], reason))
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
      const retryAt = new Date(now() + retryDelayMs(retryBaseMs, delivery.attempts + 1))
      await writes.whenFree(() => record.retrying(delivery, retryAt, unreachable!, new Date(at)))
      tell(reply.submissionId)
    }
    if (due.length === mostPerRound) return now()
    // Rows accepted but not yet marked are due on paper: look again in a while, not at once.
    if (accepted.holding) return now() + 1_000
    return soonestDue(db, 'visitor-mail')
  }

  // Whether a commit may have owed a mail to a visitor: a lead's commit mostly owes none, and
  // looking on each cost the POST path a fifth of its rate with 5,000 leads waiting for a digest.
  const lately = owedSinceLastLook()
  engine.run({
    name: 'mails to visitors',
    round: deliverDue,
    retryMs: retryBaseMs,
    lastly: accepted.markBeforeStop,
    mayHaveWork: lately.mayHaveWork,
  })
  const kept = keptVisitorMails(engine)
  return {
    owe(...owing: Parameters<VisitorMails['owe']>) {
      kept.owe(...owing)
      lately.owed()
    },
    queued() {
      lately.owed()
      engine.owed()
    },
  } satisfies VisitorMails
}
