import { and, count, eq, gte, isNull, like, max } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { deliveries, type PushSubscriptionRow } from '#app/data/schema'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import { inboxPath, leadPushMessage, pushLimits, type PushMessage } from './push-message'
import type { Due, PushOutcomes } from './push-outcomes.server'
import { push, type PushSettings } from './push-service.server'

const minuteMs = 60_000

/** One phone's due leads: up to three a minute one by one, the rest as one 'N new leads'. */
export function createPhonePushes({
  engine,
  db,
  settings,
  outcomes: { settle, defer, forget },
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  settings: () => PushSettings | null
  outcomes: PushOutcomes
}) {
  const { now } = engine
  /** An address on the site, absolute when PUBLIC_URL is set. */
  const onSite = (path: string) => `${settings()?.siteUrl ?? ''}${path}`

  /** `current`: the settings this round pushes with, read once at its start. */
  return async function pushTo(to: PushSubscriptionRow, due: Due[], at: number, current: PushSettings) {
    const since = new Date(at - minuteMs)
    const mine = and(eq(deliveries.phoneId, to.id), gte(deliveries.sentAt, since))
    const [recent] = db
      .select({ singles: count() })
      .from(deliveries)
      .where(and(mine, isNull(deliveries.sentIn)))
      .all()
    const [burst] = db
      .select({ at: max(deliveries.sentAt) })
      .from(deliveries)
      .where(and(mine, like(deliveries.sentIn, 'burst%')))
      .all()
    const allowance = Math.max(0, pushLimits.singlesPerMinute - (recent?.singles ?? 0))
    for (const [index, row] of due.slice(0, allowance).entries()) {
      if (engine.stopping) return
      const outcome = await push(to, leadPushMessage(row.lead, settings()?.siteUrl ?? null, row.answer), {
        urgent: row.lead.analysis?.urgency.level === 'high',
        topic: `lead-${row.lead.id}`,
        settings: current,
      })
      if (!outcome.sent && outcome.gone) return forget(to, outcome.why)
      const retryAt = await settle([row], outcome, null)
      // The service is failing: the phone's other leads wait with this one rather than each failing in turn.
      if (retryAt) return defer(due.slice(index + 1), retryAt, new Date(now()))
    }
    const rest = due.slice(allowance)
    if (rest.length === 0 || engine.stopping) return
    if (burst?.at) {
      // This minute's burst was told already: the rest wait to be told together when it is over.
      return defer(rest, new Date(burst.at.getTime() + minuteMs))
    }
    const message: PushMessage = {
      type: 'NEW_SUBMISSIONS',
      from: rest[0]!.lead.id,
      count: rest.length,
      url: onSite(inboxPath),
    }
    // Its own topic: an earlier burst still waiting on the push service is not replaced by this one.
    const outcome = await push(to, message, {
      urgent: rest.some((row) => row.lead.analysis?.urgency.level === 'high'),
      topic: `leads-from-${message.from}`,
      settings: current,
    })
    if (!outcome.sent && outcome.gone) return forget(to, outcome.why)
    await settle(rest, outcome, `burst-${message.from}`)
  }
}

export type PushTo = ReturnType<typeof createPhonePushes>
