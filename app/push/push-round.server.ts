import { and, count, eq, gte, inArray, isNull, like, max } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import {
  deliveries,
  pushSubscriptions,
  replies,
  submissions,
  team,
  type DeliveryRow,
  type PushSubscriptionRow,
} from '#app/data/schema'
import type { Batch } from '#app/delivery/sender.server'
import type { Submission } from '#app/leads/lead'
import { leadView } from '#app/leads/lead-view.server'
import { pushLimits } from './push-message'

const minuteMs = 60_000

/** A lead to tell a phone of. `answer`: the visitor's answer it tells of, when it tells of one rather than of the lead. */
export type PushedLead = { lead: Submission; answer: string | null }

/**
 * One push to a phone: one lead, or a burst of several ('N new leads'); `notYet` while this
 * minute's burst was told already, `off` once the person turned them off (or left the team).
 */
export type PushItem = { to: PushSubscriptionRow; leads: PushedLead[]; burst: boolean; notYet?: Date; off?: boolean }

/** A phone's due leads: up to three a minute one by one, the rest as one burst, at most one a minute. */
export function pushBatches(db: FarmDatabase) {
  function dueOf(rows: DeliveryRow[]) {
    if (rows.length === 0) return []
    return db
      .select({
        id: deliveries.id,
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
      .where(
        inArray(
          deliveries.id,
          rows.map((row) => row.id),
        ),
      )
      .all()
  }

  /** What this phone was told this minute: how many single pushes, and when a burst, if one. */
  function toldThisMinute(phone: number, at: number) {
    const mine = and(eq(deliveries.phoneId, phone), gte(deliveries.sentAt, new Date(at - minuteMs)))
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
    return { singles: recent?.singles ?? 0, burstAt: burst?.at ?? null }
  }

  return (rows: DeliveryRow[], _setup: unknown, at: number) => {
    const found = new Map(dueOf(rows).map((row) => [row.id, row]))
    const batches: Array<Batch<PushItem>> = []
    const byPhone = new Map<number, Array<{ row: DeliveryRow; lead: PushedLead; to: PushSubscriptionRow }>>()
    for (const row of rows) {
      const due = found.get(row.id)
      if (!due) continue
      const lead = { lead: leadView(due.lead), answer: due.answer }
      // Turned off (or gone from the team) since they were owed: no longer owed.
      if (due.wanted !== true)
        batches.push({ rows: [row], item: { to: due.to, leads: [lead], burst: false, off: true } })
      else byPhone.set(due.to.id, [...(byPhone.get(due.to.id) ?? []), { row, lead, to: due.to }])
    }
    for (const [phone, due] of byPhone) {
      const to = due[0]!.to
      const told = toldThisMinute(phone, at)
      const allowance = Math.max(0, pushLimits.singlesPerMinute - told.singles)
      const receiver = String(phone)
      for (const { row, lead } of due.slice(0, allowance)) {
        batches.push({ rows: [row], item: { to, leads: [lead], burst: false }, receiver })
      }
      const rest = due.slice(allowance)
      if (rest.length === 0) continue
      // This minute's burst was told already: the rest wait to be told together when it is over.
      const notYet = told.burstAt ? new Date(told.burstAt.getTime() + minuteMs) : undefined
      batches.push({
        rows: rest.map(({ row }) => row),
        item: { to, leads: rest.map(({ lead }) => lead), burst: true, ...(notYet ? { notYet } : {}) },
        receiver,
      })
    }
    return { batches }
  }
}
