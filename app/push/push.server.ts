import { and, asc, count, eq, gte, isNull, like, max, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import {
  deliveries,
  pushSubscriptions,
  replies,
  submissions,
  team,
  type PushSubscriptionRow,
  type SubmissionRow,
} from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { hasGivenUp, retryDelayMs } from '#app/delivery/backoff'
import { owedSinceLastLook, type DeliveryEngine } from '#app/delivery/engine.server'
import { deliveryRecord, dueOf, soonestDue } from '#app/delivery/record.server'
import type { Submission } from '#app/leads/lead'
import { leadView } from '#app/leads/lead-view.server'
import type { Log } from '#app/log'
import { inboxPath, leadPushMessage, pushLimits, type PushMessage } from './push-message'
import type { OwnerSubscription } from './push-subscription.server'
import type { VapidKeys } from './vapid.server'

export interface PushSettings {
  keys: VapidKeys
  /** The VAPID subject push services may contact: `mailto:` or `https:`. */
  subject: string
  /** PUBLIC_URL, when set: the notification opens an absolute address. */
  siteUrl: string | null
}

const dayMs = 24 * 60 * 60 * 1000
const minuteMs = 60_000
const mostPerRound = 100
/** Until a push service answers; then it is tried again. */
// Within the delivery engine's stop bound (6 s): what is on its way at a stop is answered, or
// left unmarked and sent again, before the site exits, never marked after it.
const answerWithinMs = 5_000

type Outcome = { sent: true } | { sent: false; gone: boolean; retry: boolean; why: string }

/** What web-push's sendNotification needs, and what it answers or throws. */
type Send = (
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  payload: string,
  options: Record<string, unknown>,
) => Promise<{ statusCode: number }>

/**
 * The owner's phones: the subscriptions (at most 20), and each clean lead pushed to each of them
 * from the outbox, written in the lead's own transaction. A push service's 404/410 forgets that
 * phone; 429 and 5xx are tried again (NOTIFY_RETRY_SECONDS, doubling) for a day. Past three leads
 * in a minute, a phone is told the rest as one 'N new leads'.
 */
export function createPush({
  engine,
  db,
  writes,
  log,
  settings,
  retryBaseMs,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  writes: Writes
  log: Log
  /** The push settings now: null while push services have no contact (what was owed waits). */
  settings: () => PushSettings | null
  /** The first retry waits this long (NOTIFY_RETRY_SECONDS, as the mail's), then twice as long each time. */
  retryBaseMs: number
}) {
  const { now } = engine
  // Whether a round may find something once a lead is committed (at start the engine looks
  // anyway): only once a lead owed a phone a push, so a farm without phones pays nothing per lead.
  const lately = owedSinceLastLook()
  let send: Send | undefined
  // Loaded on the first push only: a site whose owner never turns notifications on never pays for it.
  async function sender(): Promise<Send> {
    send ??= (await import('web-push')).default.sendNotification as unknown as Send
    return send
  }

  // The settings this round pushes with, read once at its start.
  let current: PushSettings
  /** An address on the site, absolute when PUBLIC_URL is set. */
  const onSite = (path: string) => `${settings()?.siteUrl ?? ''}${path}`

  async function push(to: PushSubscriptionRow, message: PushMessage, urgent: boolean, topic: string): Promise<Outcome> {
    try {
      await (
        await sender()
      )({ endpoint: to.endpoint, keys: { p256dh: to.p256dh, auth: to.auth } }, JSON.stringify(message), {
        vapidDetails: { subject: current.subject, ...current.keys },
        TTL: dayMs / 1000,
        urgency: urgent ? 'high' : 'normal',
        topic,
        contentEncoding: 'aes128gcm',
        timeout: answerWithinMs,
      })
      return { sent: true }
    } catch (error) {
      const status = (error as { statusCode?: unknown }).statusCode
      if (typeof status === 'number') {
        return {
          sent: false,
          gone: status === 404 || status === 410,
          retry: status === 429 || status >= 500,
          why: `The push service answered ${status}.`,
        }
      }
      // The cause's code (ECONNREFUSED, ENOTFOUND, a certificate's), never the address itself.
      const code = (error as { code?: unknown }).code
      const why = typeof code === 'string' ? code : (error as Error).message.slice(0, 80)
      return { sent: false, gone: false, retry: true, why: `The push service could not be reached (${why}).` }
    }
  }

  /** `answer`: the visitor's answer it tells of, when it tells of one rather than of the lead. */
  type Due = {
    message: typeof deliveries.$inferSelect
    lead: Submission
    to: PushSubscriptionRow
    answer: string | null
  }

  /**
   * Marks what one push told (one lead, or a burst named `burst-{first lead}`) by how it went;
   * when to try again, if it will be.
   */
  async function settle(rows: Due[], outcome: Outcome, burst: string | null): Promise<Date | null> {
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
  }

  /** Leaves leads for later without a try: this minute's burst told, or a failing push service (`failing`). */
  async function defer(rows: Due[], until: Date, failing?: Date) {
    await writes.whenFree(() =>
      deliveryRecord(db).deferred(
        rows.map(({ message }) => message.id),
        until,
        failing,
      ),
    )
  }

  async function forget(to: PushSubscriptionRow, why: string) {
    await writes.whenFree(() => db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, to.id)).run())
    log.info({ phone: to.id, reason: why }, 'the push service says this phone is gone; no longer notifying it')
  }

  /** One phone's due leads: up to three a minute one by one, the rest as one 'N new leads'. */
  async function pushTo(to: PushSubscriptionRow, due: Due[], at: number) {
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
      const urgent = row.lead.analysis?.urgency.level === 'high'
      const outcome = await push(
        to,
        leadPushMessage(row.lead, settings()?.siteUrl ?? null, row.answer),
        urgent,
        `lead-${row.lead.id}`,
      )
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
    const urgent = rest.some((row) => row.lead.analysis?.urgency.level === 'high')
    const message: PushMessage = {
      type: 'NEW_SUBMISSIONS',
      from: rest[0]!.lead.id,
      count: rest.length,
      url: onSite(inboxPath),
    }
    // Its own topic: an earlier burst still waiting on the push service is not replaced by this one.
    const outcome = await push(to, message, urgent, `leads-from-${message.from}`)
    if (!outcome.sent && outcome.gone) return forget(to, outcome.why)
    await settle(rest, outcome, `burst-${message.from}`)
  }

  async function pushDue(): Promise<number | null> {
    const at = now()
    const live = settings()
    if (!live) return null
    current = live
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
      await pushTo(rows[0]!.to, rows, at)
    }
    if (due.length === mostPerRound) return now()
    return soonestDue(db, 'push')
  }

  engine.run({
    name: 'pushes',
    round: pushDue,
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
    /**
     * Keeps a phone's subscription: 'added', 'known' (its keys refreshed), or 'full' when 20
     * phones are notified already.
     */
    async subscribe(subscription: OwnerSubscription, memberId: number): Promise<'added' | 'known' | 'full'> {
      return writes.whenFree(() =>
        db.transaction((tx) => {
          // A browser is whoever turned it on last: a phone passed from hand to hand is theirs now.
          const known = tx
            .update(pushSubscriptions)
            .set({ p256dh: subscription.p256dh, auth: subscription.auth, memberId })
            .where(eq(pushSubscriptions.endpoint, subscription.endpoint))
            .run()
          if (known.changes > 0) return 'known'
          const [phones] = tx.select({ n: count() }).from(pushSubscriptions).all()
          if ((phones?.n ?? 0) >= pushLimits.subscriptions) return 'full'
          tx.insert(pushSubscriptions)
            .values({ ...subscription, memberId, createdAt: new Date(now()) })
            .run()
          return 'added'
        }),
      )
    },
    /** Stops notifying a phone; false when it was not notified. Its pushes still owed go with it. */
    async unsubscribe(endpoint: string): Promise<boolean> {
      const gone = await writes.whenFree(() =>
        db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)).run(),
      )
      return gone.changes > 0
    },
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
