import { sql } from 'drizzle-orm'
import type { SubmissionRow } from '#app/data/schema'
import { owedSinceLastLook } from '#app/delivery/engine.server'
import { createPhonePushes } from './phone-pushes.server'
import { createPhoneSubscriptions } from './phone-subscriptions.server'
import { createPushOutcomes } from './push-outcomes.server'
import { createPushRound } from './push-round.server'
import type { PushNeeds } from './push-service.server'

export type { PushSettings } from './push-service.server'

/**
 * The owner's phones: the subscriptions (at most 20), and each clean lead pushed to each of them
 * from the outbox, written in the lead's own transaction. A push service's 404/410 forgets that
 * phone; 429 and 5xx are tried again (NOTIFY_RETRY_SECONDS, doubling) for a day. Past three leads
 * in a minute, a phone is told the rest as one 'N new leads'.
 */
export function createPush({ engine, db, writes, log, settings, retryBaseMs }: PushNeeds) {
  const { now } = engine
  // Whether a round may find something once a lead is committed (at start the engine looks
  // anyway): only once a lead owed a phone a push, so a farm without phones pays nothing per lead.
  const lately = owedSinceLastLook()
  const outcomes = createPushOutcomes({ db, writes, log, now, retryBaseMs })
  const pushTo = createPhonePushes({ engine, db, settings, outcomes })

  engine.run({
    name: 'pushes',
    round: createPushRound({ engine, db, writes, log, settings, pushTo }),
    retryMs: retryBaseMs,
    mayHaveWork: lately.mayHaveWork,
  })

  /** One push owed per phone of each person who wants them, about a lead or (with `answerId`) the visitor's answer to the farm. */
  function owePerPhone(submissionId: number, answerId: number | null, at: Date) {
    const queued = db.run(
      sql`INSERT INTO deliveries (kind, phone_id, submission_id, reply_id, next_attempt_at, created_at)
          SELECT 'push', id, ${submissionId}, ${answerId}, ${at.getTime()}, ${at.getTime()} FROM push_subscriptions
          WHERE member_id IN (SELECT id FROM team WHERE push_new_leads AND removed_at IS NULL)`,
    )
    if (queued.changes > 0) lately.owed()
  }

  return {
    ...createPhoneSubscriptions({ db, writes, now }),
    /** Inside the transaction that keeps a visitor's answer: one push owed per phone. */
    queueAnswer(lead: SubmissionRow, answerId: number, at: Date): void {
      if (settings()) owePerPhone(lead.id, answerId, at)
    },
    /** Inside the transaction that keeps a lead (or reads it again): one push owed per phone, never for spam. */
    queueFor(row: SubmissionRow, at: Date): void {
      if (row.reanalyseAt !== null || row.spamReasons !== null || !settings()) return
      owePerPhone(row.id, null, at)
    },
  }
}

export type Push = ReturnType<typeof createPush>
