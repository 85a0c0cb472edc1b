import { and, asc, eq, isNull } from 'drizzle-orm'
import { deliveries, pushSubscriptions, replies, submissions, team } from '#app/data/schema'
import { hasGivenUp } from '#app/delivery/backoff'
import { deliveryRecord, dueOf, soonestDue } from '#app/delivery/record.server'
import { leadView } from '#app/leads/lead-view.server'
import type { PushTo } from './phone-pushes.server'
import type { Due } from './push-outcomes.server'
import type { PushNeeds } from './push-service.server'

const mostPerRound = 100

/**
 * A round of pushes: what is due, no longer owed to whoever turned them off, given up after a day,
 * and the rest pushed phone by phone; returns when to look again.
 */
export function createPushRound({
  engine,
  db,
  writes,
  log,
  settings,
  pushTo,
}: Omit<PushNeeds, 'retryBaseMs'> & { pushTo: PushTo }) {
  const { now } = engine
  return async function pushDue(): Promise<number | null> {
    const at = now()
    const current = settings()
    if (!current) return null
    const due = db
      .select({
        message: deliveries,
        lead: submissions,
        to: pushSubscriptions,
        answer: replies.text,
        wanted: team.pushNewLeads,
      })
      .from(deliveries)
      .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
      .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, deliveries.phoneId))
      .leftJoin(team, and(eq(team.id, pushSubscriptions.memberId), isNull(team.removedAt)))
      .leftJoin(replies, eq(replies.id, deliveries.replyId))
      .where(dueOf('push', new Date(at)))
      .orderBy(asc(deliveries.id))
      .limit(mostPerRound)
      .all()
      .map((row) => ({ ...row, lead: leadView(row.lead) }))
    // Turned off (or gone from the team) since they were owed: no longer owed.
    const unwanted = due.filter((row) => row.wanted !== true)
    if (unwanted.length > 0) {
      await writes.whenFree(() =>
        db.transaction((tx) => {
          for (const { message } of unwanted)
            deliveryRecord(tx).skipped(message.id, 'Their phone’s notifications are off')
        }),
      )
    }
    // Failing for a day (tried, or waiting behind one that was): given up together, not one a day.
    const givenUp = due.filter(({ message, wanted }) => wanted === true && hasGivenUp(message.failingSince, at))
    if (givenUp.length > 0) {
      await writes.whenFree(() =>
        db.transaction((tx) => deliveryRecord(tx).gaveUp(givenUp.map(({ message }) => message))),
      )
      log.warn({ leads: givenUp.length }, 'gave up pushing these leads to a phone after a day of trying')
    }
    const byPhone = new Map<number, Due[]>()
    for (const row of due.filter((row) => row.wanted === true && !givenUp.includes(row))) {
      const phone = byPhone.get(row.to.id)
      if (phone) phone.push(row)
      else byPhone.set(row.to.id, [row])
    }
    for (const rows of byPhone.values()) {
      if (engine.stopping) break
      await pushTo(rows[0]!.to, rows, at, current)
    }
    if (due.length === mostPerRound) return now()
    return soonestDue(db, 'push')
  }
}
