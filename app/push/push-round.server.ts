import { and, eq, inArray, isNull } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { pushSubscriptions, team, type DeliveryRow, type PushSubscriptionRow } from '#app/data/schema'
import { phoneToldSince } from '#app/delivery/reads.server'
import { idsOf, type Batch } from '#app/delivery/sender.server'
import type { Submission } from '#app/leads/lead'
import { leadsAndAnswers } from '#app/leads/lead-view.server'
import { pushLimits } from './push-message'

const minuteMs = 60_000

/** A lead to tell a phone of. `answer`: the visitor's answer it tells of, when it tells of one rather than of the lead. */
export type PushedLead = { lead: Submission; answer: string | null }

/**
 * One push to a phone: one lead, or a burst of several ('N new leads'); `notYet` while this
 * minute's burst was told already, `off` once the person turned them off (or left the team).
 */
export type PushItem = { to: PushSubscriptionRow; leads: PushedLead[]; burst: boolean; notYet?: Date; off?: boolean }

/** A row's lead and phone; `wanted` is false or null once the person turned pushes off or left the team. */
type Due = { lead: Submission; to: PushSubscriptionRow; answer: string | null; wanted: boolean | null }

/** A phone's due leads: up to three a minute one by one, the rest as one burst, at most one a minute. */
export function pushBatches(db: FarmDatabase) {
  /** What each row tells of, and to which phone: none for a row whose lead or phone is gone. */
  function dueOf(rows: DeliveryRow[]): Map<number, Due> {
    if (rows.length === 0) return new Map()
    const byId = <Row extends { id: number }>(found: Row[]) => new Map(found.map((row) => [row.id, row]))
    const { leadOf, answerOf } = leadsAndAnswers(db, idsOf(rows, 'submissionId'), idsOf(rows, 'replyId'))
    const phones = byId(
      db
        .select({ phone: pushSubscriptions, wanted: team.pushNewLeads })
        .from(pushSubscriptions)
        .leftJoin(team, and(eq(team.id, pushSubscriptions.memberId), isNull(team.removedAt)))
        .where(inArray(pushSubscriptions.id, idsOf(rows, 'phoneId')))
        .all()
        .map(({ phone, wanted }) => ({ id: phone.id, phone, wanted })),
    )
    return new Map(
      rows.flatMap((row) => {
        const lead = leadOf(row.submissionId)
        const to = row.phoneId === null ? undefined : phones.get(row.phoneId)
        if (!lead || !to) return []
        const answer = answerOf(row.replyId)?.text ?? null
        return [[row.id, { lead, to: to.phone, answer, wanted: to.wanted }] satisfies [number, Due]]
      }),
    )
  }

  return (rows: DeliveryRow[], _setup: unknown, at: number) => {
    const found = dueOf(rows)
    const batches: Array<Batch<PushItem>> = []
    const byPhone = new Map<number, Array<{ row: DeliveryRow; lead: PushedLead; to: PushSubscriptionRow }>>()
    for (const row of rows) {
      const due = found.get(row.id)
      if (!due) continue
      const lead = { lead: due.lead, answer: due.answer }
      // Turned off (or gone from the team) since they were owed: no longer owed.
      if (due.wanted !== true)
        batches.push({ rows: [row], item: { to: due.to, leads: [lead], burst: false, off: true } })
      else byPhone.set(due.to.id, [...(byPhone.get(due.to.id) ?? []), { row, lead, to: due.to }])
    }
    for (const [phone, due] of byPhone) {
      const to = due[0]!.to
      const told = phoneToldSince(db, phone, new Date(at - minuteMs))
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
