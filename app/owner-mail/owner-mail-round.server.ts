import { and, asc, countDistinct, eq, gte, max, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { deliveries, replies, submissions } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { hasGivenUp } from '#app/delivery/backoff'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import { deliveryRecord, dueOf, soonestDue } from '#app/delivery/record.server'
import { leadView } from '#app/leads/lead-view.server'
import type { Log } from '#app/log'
import type { Due, OwnerMailSending, OwnerMailSettings } from './owner-mail-sending.server'

// One digest names every lead that waited for it, up to this many (and up to its bytes).
const mostPerDigest = 5_000
// Refused mails are halved and sent again; a round sends at most this many.
const mostMailsPerRound = 40

/**
 * A round of the owner's mails: what is due, given up after a day, sent one mail a lead up to
 * `digestAfter` mails in the digest window, and the rest in one digest once the window's is over.
 */
export function createOwnerMailRound({
  engine,
  db,
  writes,
  log,
  settings,
  sending: { sendLeads, accepted },
  backlog,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  writes: Writes
  log: Log
  settings: () => OwnerMailSettings | null
  sending: OwnerMailSending
  backlog: () => Record<string, number>
}) {
  const { now } = engine
  const ownerMails = eq(deliveries.kind, 'owner-mail')

  /** Sends what is due; returns when to look again (ms since the epoch) and whether only the digest's window holds leads back. */
  return async function deliverDue(): Promise<{ wakeAt: number | null; digestWaiting: boolean }> {
    accepted.markHeld()
    const current = settings()
    // Off: what was owed waits, to go once mail is set up again.
    if (!current) return { wakeAt: null, digestWaiting: false }
    const round = { settings: current, accepted: false, mailsLeft: mostMailsPerRound }
    const at = now()
    const held = accepted.held()
    const due = db
      .select({ mail: deliveries, lead: submissions, answer: replies.text })
      .from(deliveries)
      .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
      .leftJoin(replies, eq(replies.id, deliveries.replyId))
      .where(dueOf('owner-mail', new Date(at)))
      .orderBy(asc(deliveries.id))
      .limit(mostPerDigest + current.digestAfter)
      .all()
      .filter(({ mail }) => !held.has(mail.id))
      .map(({ mail, lead, answer }) => ({ mail, lead: { ...leadView(lead), answer } }))
    const givenUp = ({ mail }: Due) => hasGivenUp(mail.failingSince, at)
    const expired = due.filter(givenUp)
    if (expired.length > 0) {
      await writes.whenFree(() => db.transaction((tx) => deliveryRecord(tx).gaveUp(expired.map(({ mail }) => mail))))
      log.error(
        { leads: expired.map(({ lead }) => lead.id), reason: expired[0]!.mail.lastError },
        'gave up mailing the owner about these leads after a day of trying',
      )
    }
    const waiting = due.filter((row) => !givenUp(row))
    const windowStart = new Date(at - current.digestWindowMs)
    const [recent] = db
      .select({ mails: countDistinct(deliveries.sentIn) })
      .from(deliveries)
      .where(and(ownerMails, gte(deliveries.sentAt, windowStart)))
      .all()
    const singles = Math.max(0, current.digestAfter - (recent?.mails ?? 0))
    for (const row of waiting.slice(0, singles)) await sendLeads([row], round)
    const rest = waiting.slice(singles, singles + mostPerDigest)
    let digestAfterMs: number | null = null
    if (rest.length > 0) {
      const [last] = db
        .select({ at: max(deliveries.sentAt) })
        .from(deliveries)
        .where(and(ownerMails, gte(deliveries.sentAt, windowStart), sql`${deliveries.sentIn} LIKE 'digest-%'`))
        .all()
      if (last?.at) digestAfterMs = last.at.getTime() + current.digestWindowMs
      else await sendLeads(rest, round)
    }
    if (due.length > 0) log.info(backlog(), 'mailed the owner')
    const next = soonestDue(db, 'owner-mail')
    // Rows accepted but not yet marked are due on paper: look again in a while, not at once.
    const markingAfter = accepted.holding ? now() + 1_000 : 0
    const wakeAt = next !== null ? Math.max(next, digestAfterMs ?? 0, markingAfter) : null
    return { wakeAt, digestWaiting: digestAfterMs !== null && wakeAt !== null }
  }
}
