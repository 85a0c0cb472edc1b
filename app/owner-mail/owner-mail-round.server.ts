import type { FarmDatabase } from '#app/data/database.server'
import type { DeliveryRow } from '#app/data/schema'
import { lastDigestSince, mailsToOwnerSince } from '#app/delivery/reads.server'
import { idsOf, type Batch } from '#app/delivery/sender.server'
import { leadsAndAnswers } from '#app/leads/lead-view.server'
import { digestMail, type Lead } from './owner-mail.server'
import type { OwnerMailSettings } from './owner-mail-sending.server'

// One digest names every lead that waited for it, up to this many (and up to its bytes).
export const mostPerDigest = 5_000

/** What the owner's mail holds: one lead, or a digest of several, in the rows' order. */
export type OwnerMailItem = Lead[]

/**
 * How the owner's due leads go out: one mail a lead, up to `digestAfter` mails in the digest
 * window, and the rest in one digest once the window's is over (until then they wait, and
 * `lookAgainAt` says when).
 */
export function ownerMailBatches(db: FarmDatabase) {
  function leadsOf(rows: DeliveryRow[]): Map<number, Lead> {
    if (rows.length === 0) return new Map()
    const { leadOf, answerOf } = leadsAndAnswers(db, idsOf(rows, 'submissionId'), idsOf(rows, 'replyId'))
    return new Map(
      rows.flatMap((row) => {
        const lead = leadOf(row.submissionId)
        const answer = answerOf(row.replyId)
        const told = answer ? { text: answer.text, at: answer.createdAt.toISOString() } : null
        return lead ? [[row.id, { ...lead, answer: told }] satisfies [number, Lead]] : []
      }),
    )
  }

  return (rows: DeliveryRow[], setup: OwnerMailSettings, at: number) => {
    const leads = leadsOf(rows)
    const due = rows.filter((row) => leads.has(row.id))
    const windowStart = new Date(at - setup.digestWindowMs)
    const singles = Math.max(0, setup.digestAfter - mailsToOwnerSince(db, windowStart))
    const batches: Array<Batch<OwnerMailItem>> = due
      .slice(0, singles)
      .map((row) => ({ rows: [row], item: [leads.get(row.id)!] }))
    const rest = due.slice(singles, singles + mostPerDigest)
    if (rest.length === 0) return { batches }
    const lastDigest = lastDigestSince(db, windowStart)
    if (lastDigest) return { batches, lookAgainAt: lastDigest.getTime() + setup.digestWindowMs }
    const fit = digestMail(
      rest.map((row) => leads.get(row.id)!),
      setup,
    ).leads
    const inDigest = rest.slice(0, fit)
    batches.push({ rows: inDigest, item: inDigest.map((row) => leads.get(row.id)!) })
    return { batches }
  }
}

/** Part of a mail's leads, as a mail of their own. */
export function ownerMailOf(batch: Batch<OwnerMailItem>, rows: DeliveryRow[]): Batch<OwnerMailItem> {
  const byRow = new Map(batch.rows.map((row, index) => [row.id, batch.item[index]!]))
  return { rows, item: rows.map((row) => byRow.get(row.id)!) }
}
