import { and, asc, count, countDistinct, eq, gte, inArray, lte, max, min, sql } from 'drizzle-orm'
import type { SendMailOptions } from 'nodemailer'
import type { FarmDatabase } from '#app/data/database.server'
import { outbox, submissions, type OutboxRow } from '#app/data/schema'
import { isBusy, type Writes } from '#app/data/writes.server'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
import { createMailTransport } from './mail-transport.server'
import { roundsOnATimer, soonest } from './rounds.server'
import { digestMail, leadMail, type Lead, type OwnerMail } from './owner-mail.server'

/** How the owner is mailed about leads (SMTP_URL, NOTIFY_*, PUBLIC_URL). */
export interface OwnerMailSettings {
  /** smtp:// or smtps://, with any credentials in it; never logged. */
  smtpUrl: string
  to: string[]
  from: string
  /** Past this many mails in a digest window, leads wait for one digest per window. */
  digestAfter: number
  digestWindowMs: number
  /** The first retry waits this long; each next one twice as long (with jitter), up to a day in all. */
  retryBaseMs: number
  /** The site's public address, for a link to the lead in each mail; none without it. */
  publicUrl: string | null
}

const dayMs = 24 * 60 * 60 * 1000
const longestWaitMs = 60 * 60 * 1000
// One digest names every lead that waited for it, up to this many (and up to its bytes).
const mostPerDigest = 5_000
// Refused mails are halved and sent again; a round sends at most this many.
const mostMailsPerRound = 40

/**
 * The mail server will not take this mail for what is in it (5xx once the message was sent),
 * as opposed to being unreachable or busy for a while.
 */
function isRefusal(error: unknown): boolean {
  const { responseCode, command } = (error ?? {}) as { responseCode?: unknown; command?: unknown }
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && command === 'DATA'
}

/**
 * Another kind of mail the sender delivers in each of its rounds (the mails to visitors), with
 * its transport: what is due, and when more will be.
 */
export interface MailQueue {
  /** Sends what is due now; resolves with when something next falls due (ms since the epoch), or null. */
  deliverDue(send: (mail: SendMailOptions) => Promise<void>): Promise<number | null>
  /** How many wait to be sent, and since when the oldest has. */
  backlog(): { unsent: number; oldest: Date | null }
}

/** The wait before attempt n + 1: doubling from the base, at most an hour, ±20 % so retries spread. */
export function retryDelayMs(baseMs: number, attempts: number, random = Math.random): number {
  const doubled = Math.min(longestWaitMs, baseMs * 2 ** Math.min(attempts - 1, 20))
  return Math.round(doubled * (0.8 + 0.4 * random()))
}

/**
 * Mails the owner about every lead in the outbox. Each row is marked sent only once the
 * mail server has accepted the mail it went in; what fails waits and is tried again, for up
 * to a day. Past `digestAfter` mails within a digest window, leads wait for one digest mail
 * per window, so a burst cannot flood the owner's mailbox.
 */
export function createOutboxSender({
  db,
  events,
  settings,
  log,
  writes,
  queues = [],
  now = Date.now,
}: {
  db: FarmDatabase
  events: SubmissionEvents
  settings: OwnerMailSettings
  log: Log
  writes: Writes
  /** Other mails sent in the same rounds, through the same server. */
  queues?: MailQueue[]
  now?: () => number
}) {
  const transport = createMailTransport(settings.smtpUrl)
  // While leads wait for the next digest, a new lead can only join them: no need to look.
  let digestWaitsUntil = 0

  function backlog() {
    const [row] = db
      .select({ unsent: count(), oldest: min(outbox.createdAt) })
      .from(outbox)
      .where(eq(outbox.status, 'pending'))
      .all()
    let unsent = row?.unsent ?? 0
    let oldest = row?.oldest?.getTime() ?? Infinity
    for (const queue of queues) {
      const waiting = queue.backlog()
      unsent += waiting.unsent
      oldest = Math.min(oldest, waiting.oldest?.getTime() ?? Infinity)
    }
    return { unsent, oldestUnsentSeconds: oldest === Infinity ? 0 : Math.round((now() - oldest) / 1000) }
  }

  const sendAs = transport.send

  const send = (mail: OwnerMail) =>
    sendAs({
      from: settings.from,
      to: settings.to,
      replyTo: mail.replyTo,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    })

  // Mails the server accepted whose rows could not be marked yet (another process held the
  // database): they are never sent again, and are marked first thing on the next round.
  let acceptedUnmarked: Array<{ ids: number[]; mailKey: string; at: Date }> = []

  /** Marks what was accepted; throws SQLite's busy error while another process holds the lock. */
  function markAccepted() {
    let busy: unknown = null
    acceptedUnmarked = acceptedUnmarked.filter(({ ids, mailKey, at }) => {
      try {
        db.update(outbox)
          .set({ status: 'sent', sentAt: at, mailKey, lastError: null })
          .where(inArray(outbox.id, ids))
          .run()
        return false
      } catch (error) {
        if (!isBusy(error)) throw error
        busy = error
        return true
      }
    })
    if (busy) throw busy
  }

  async function markSent(ids: number[], mailKey: string) {
    acceptedUnmarked.push({ ids, mailKey, at: new Date(now()) })
    await writes.whenFree(markAccepted).catch((error: unknown) => {
      log.warn({ err: error }, 'a mail went out but its leads are not marked sent yet; marking them next round')
    })
  }

  async function markFailedAttempt(rows: Array<{ id: number; attempts: number }>, error: unknown) {
    const reason = error instanceof Error ? error.message : String(error)
    await writes.whenFree(() =>
      db.transaction((tx) => {
        for (const { id, attempts } of rows) {
          tx.update(outbox)
            .set({
              attempts: attempts + 1,
              nextAttemptAt: new Date(now() + retryDelayMs(settings.retryBaseMs, attempts + 1)),
              lastError: reason,
            })
            .where(eq(outbox.id, id))
            .run()
        }
      }),
    )
    log.warn({ reason, leads: rows.length, ...backlog() }, 'could not mail the owner; trying again later')
  }

  async function markRefused(row: { id: number }, lead: number, error: unknown) {
    const reason = error instanceof Error ? error.message : String(error)
    await writes.whenFree(() =>
      db.update(outbox).set({ status: 'failed', lastError: reason }).where(eq(outbox.id, row.id)).run(),
    )
    log.error({ lead, reason }, 'the mail server refused the mail about this lead; it is in the inbox')
  }

  type Due = { mail: OutboxRow; lead: Lead }

  /**
   * One mail for these leads: a lead mail for one, a digest for more (of as many as fit its
   * bytes; the rest stay due for the next). When the server refuses it for what is in it, the
   * leads are halved and sent again, down to one lead, so one lead the server will not take
   * does not hold back the rest; that one is marked failed only when the server took another
   * mail this round (else it refuses everything, and all wait and retry). A round tries a
   * bounded number of mails.
   */
  async function sendLeads(due: Due[], round: { accepted: boolean; mailsLeft: number }): Promise<void> {
    const digest =
      due.length > 1
        ? digestMail(
            due.map(({ lead }) => lead),
            settings.publicUrl,
          )
        : null
    const rows = digest ? due.slice(0, digest.leads) : due
    if (round.mailsLeft <= 0) {
      return markFailedAttempt(
        rows.map(({ mail }) => mail),
        new Error('too many refused mails this round'),
      )
    }
    round.mailsLeft--
    try {
      await send(digest ? digest.mail : leadMail(rows[0]!.lead, settings.publicUrl))
    } catch (error) {
      if (!isRefusal(error))
        return markFailedAttempt(
          rows.map(({ mail }) => mail),
          error,
        )
      if (rows.length > 1) {
        const half = Math.ceil(rows.length / 2)
        await sendLeads(rows.slice(0, half), round)
        return sendLeads(rows.slice(half), round)
      }
      if (round.accepted) return markRefused(rows[0]!.mail, rows[0]!.lead.id, error)
      return markFailedAttempt([rows[0]!.mail], error)
    }
    round.accepted = true
    await markSent(
      rows.map(({ mail }) => mail.id),
      rows.length === 1 ? `lead-${rows[0]!.lead.id}` : `digest-${rows[0]!.mail.id}`,
    )
  }

  /** Sends what is due; returns when to look again (ms since the epoch) and whether only the digest's window holds leads back. */
  async function deliverDue(): Promise<{ wakeAt: number | null; digestWaiting: boolean }> {
    try {
      markAccepted()
    } catch (error) {
      if (!isBusy(error)) throw error
    }
    const round = { accepted: false, mailsLeft: mostMailsPerRound }
    const at = now()
    const held = new Set(acceptedUnmarked.flatMap(({ ids }) => ids))
    const due = db
      .select({ mail: outbox, lead: submissions })
      .from(outbox)
      .innerJoin(submissions, eq(submissions.id, outbox.submissionId))
      .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, new Date(at))))
      .orderBy(asc(outbox.id))
      .limit(mostPerDigest + settings.digestAfter)
      .all()
      .filter(({ mail }) => !held.has(mail.id))
    const expired = due.filter(({ mail }) => at - mail.createdAt.getTime() >= dayMs)
    if (expired.length > 0) {
      await writes.whenFree(() =>
        db
          .update(outbox)
          .set({ status: 'failed' })
          .where(
            inArray(
              outbox.id,
              expired.map(({ mail }) => mail.id),
            ),
          )
          .run(),
      )
      log.error(
        { leads: expired.map(({ lead }) => lead.id), reason: expired[0]!.mail.lastError },
        'gave up mailing the owner about these leads after a day of trying',
      )
    }
    const waiting = due.filter(({ mail }) => at - mail.createdAt.getTime() < dayMs)
    const windowStart = new Date(at - settings.digestWindowMs)
    const [recent] = db
      .select({ mails: countDistinct(outbox.mailKey) })
      .from(outbox)
      .where(gte(outbox.sentAt, windowStart))
      .all()
    const singles = Math.max(0, settings.digestAfter - (recent?.mails ?? 0))
    for (const row of waiting.slice(0, singles)) await sendLeads([row], round)
    const rest = waiting.slice(singles, singles + mostPerDigest)
    let digestAfterMs: number | null = null
    if (rest.length > 0) {
      const [last] = db
        .select({ at: max(outbox.sentAt) })
        .from(outbox)
        .where(and(gte(outbox.sentAt, windowStart), sql`${outbox.mailKey} LIKE 'digest-%'`))
        .all()
      if (last?.at) digestAfterMs = last.at.getTime() + settings.digestWindowMs
      else await sendLeads(rest, round)
    }
    if (due.length > 0) log.info(backlog(), 'mailed the owner')
    const next = soonest(db, outbox, outbox.nextAttemptAt, eq(outbox.status, 'pending'))
    // Rows accepted but not yet marked are due on paper: look again in a while, not at once.
    const markingAfter = acceptedUnmarked.length > 0 ? now() + 1_000 : 0
    const ownerWake = next !== null ? Math.max(next, digestAfterMs ?? 0, markingAfter) : null
    let wakeAt = ownerWake
    for (const queue of queues) {
      const queueWake = await queue.deliverDue(sendAs)
      if (queueWake !== null) wakeAt = Math.min(wakeAt ?? Infinity, queueWake)
    }
    return { wakeAt, digestWaiting: digestAfterMs !== null && ownerWake !== null }
  }

  const rounds = roundsOnATimer({
    round: async () => {
      const delivered = await deliverDue()
      digestWaitsUntil = delivered.digestWaiting && delivered.wakeAt !== null ? delivered.wakeAt : 0
      return delivered.wakeAt
    },
    retryMs: settings.retryBaseMs,
    failed: (error) => log.error({ err: error }, 'the outbox could not be read'),
    now,
  })

  const unsubscribe = events.subscribe((event) => {
    if (event.type === 'NEW_SUBMISSION' && now() >= digestWaitsUntil) rounds.wake()
  })

  return {
    /** How many mails wait to be sent, and how long the oldest has waited. */
    backlog,
    /** Looks for due mail now: one was just queued. */
    wake: rounds.wake,
    start() {
      const host = new URL(settings.smtpUrl).host
      log.info({ smtp: host, to: settings.to.length, ...backlog() }, 'mailing the owner about each lead')
      rounds.wake()
    },
    stop() {
      void rounds.stop()
      unsubscribe()
      transport.close()
    },
  }
}
