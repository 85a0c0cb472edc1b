import { inArray, sql } from 'drizzle-orm'
import { pushSubscriptions, type SubmissionRow } from '#app/data/schema'
import { owedSinceLastLook } from '#app/delivery/engine.server'
import { owePushes } from '#app/delivery/record.server'
import { pushToPhone } from './phone-pushes.server'
import { createPhoneSubscriptions } from './phone-subscriptions.server'
import { pushBatches, type PushItem } from './push-round.server'
import type { PushNeeds, PushSettings } from './push-service.server'

const mostPerRound = 100

/** The phones of the people of the team who want a push for each lead. */
const wantingPushes = sql`member_id IN (SELECT id FROM team WHERE push_new_leads AND removed_at IS NULL)`

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
  engine.deliver<PushItem, PushSettings>({
    kind: 'push',
    name: 'pushes',
    setup: settings,
    retryBaseMs,
    mostRowsPerRound: () => mostPerRound,
    batchesOf: pushBatches(db),
    send: pushToPhone,
    settled(tx, rows, state, verdict) {
      if (state !== 'failed' || !verdict || !('refused' in verdict) || !verdict.gone) return
      const phones = [...new Set(rows.map((row) => row.phoneId!))]
      tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, phones)).run()
      log.info(
        { phones: phones.length, reason: verdict.refused },
        'the push service says this phone is gone; no longer notifying it',
      )
    },
    words: {
      later: 'could not push a lead to a phone',
      refused: 'the push service refused a push',
      gaveUp: 'gave up pushing these leads to a phone after a day of trying',
    },
    mayHaveWork: lately.mayHaveWork,
  })

  /** One push owed per phone of each person who wants them, about a lead or (with `answerId`) the visitor's answer to the farm. */
  function owePerPhone(submissionId: number, answerId: number | null, at: Date) {
    const queued = owePushes(db, { submissionId, replyId: answerId }, wantingPushes, at)
    if (queued > 0) lately.owed()
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
