import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { pushSubscriptions, type DeliveryRow, type PushSubscriptionRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { hasGivenUp, retryDelayMs } from '#app/delivery/backoff'
import { deliveryRecord } from '#app/delivery/record.server'
import type { Submission } from '#app/leads/lead'
import type { Log } from '#app/log'
import type { PushOutcome } from './push-service.server'

/** A push owed to a phone. `answer`: the visitor's answer it tells of, when it tells of one rather than of the lead. */
export type Due = {
  message: DeliveryRow
  lead: Submission
  to: PushSubscriptionRow
  answer: string | null
}

/** What a push's outcome writes on the rows it told of: sent, failed, to try again, or the phone forgotten. */
export function createPushOutcomes({
  db,
  writes,
  log,
  now,
  retryBaseMs,
}: {
  db: FarmDatabase
  writes: Writes
  log: Log
  now: () => number
  retryBaseMs: number
}) {
  return {
    /**
     * Marks what one push told (one lead, or a burst named `burst-{first lead}`) by how it went;
     * when to try again, if it will be.
     */
    async settle(rows: Due[], outcome: PushOutcome, burst: string | null): Promise<Date | null> {
      const ids = rows.map((row) => row.message.id)
      // One time for the whole burst, so it is told together again.
      const tries = Math.max(...rows.map((row) => row.message.attempts)) + 1
      const retryAt = new Date(now() + retryDelayMs(retryBaseMs, tries))
      const at = new Date(now())
      await writes.whenFree(() =>
        db.transaction((tx) => {
          const record = deliveryRecord(tx)
          if (outcome.sent) return record.sent(ids, at, burst)
          if (!outcome.retry) return record.failed(ids, outcome.why)
          for (const { message } of rows) {
            if (hasGivenUp(message.failingSince, at.getTime())) {
              record.gaveUp([{ ...message, lastError: outcome.why }])
            } else record.retrying(message, retryAt, outcome.why, at)
          }
        }),
      )
      if (!outcome.sent) log.warn({ leads: ids.length, reason: outcome.why }, 'could not push a lead to a phone')
      return !outcome.sent && outcome.retry ? retryAt : null
    },

    /** Leaves leads for later without a try: this minute's burst told, or a failing push service (`failing`). */
    async defer(rows: Due[], until: Date, failing?: Date) {
      await writes.whenFree(() =>
        deliveryRecord(db).deferred(
          rows.map(({ message }) => message.id),
          until,
          failing,
        ),
      )
    },

    async forget(to: PushSubscriptionRow, why: string) {
      await writes.whenFree(() => db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, to.id)).run())
      log.info({ phone: to.id, reason: why }, 'the push service says this phone is gone; no longer notifying it')
    },
  }
}

export type PushOutcomes = ReturnType<typeof createPushOutcomes>
