import { and, asc, count, countDistinct, eq, gte, inArray, lte, max, min, sql } from 'drizzle-orm'
import type { Transporter } from 'nodemailer'
import type { FarmDatabase } from '#app/data/database.server'
import { outbox, submissions } from '#app/data/schema'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
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
// One digest names every lead that waited for it, up to this many (about 2 MB of mail).
const mostPerDigest = 5_000

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
  now = Date.now,
}: {
  db: FarmDatabase
  events: SubmissionEvents
  settings: OwnerMailSettings
  log: Log
  now?: () => number
}) {
  // nodemailer is about 15 MB of the server's memory: loaded with the first mail, not at start.
  let transport: Promise<Transporter> | undefined
  const mailTransport = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: settings.smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    ))
  let timer: NodeJS.Timeout | undefined
  let running = false
  let runAgain = false
  let stopped = false

  function backlog() {
    const [row] = db
      .select({ unsent: count(), oldest: min(outbox.createdAt) })
      .from(outbox)
      .where(eq(outbox.status, 'pending'))
      .all()
    return {
      unsent: row?.unsent ?? 0,
      oldestUnsentSeconds: row?.oldest ? Math.round((now() - row.oldest.getTime()) / 1000) : 0,
    }
  }

  async function send(mail: OwnerMail) {
    await (
      await mailTransport()
    ).sendMail({
      from: settings.from,
      to: settings.to,
      replyTo: mail.replyTo,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    })
  }

  function markSent(ids: number[], mailKey: string) {
    db.update(outbox)
      .set({ status: 'sent', sentAt: new Date(now()), mailKey, lastError: null })
      .where(inArray(outbox.id, ids))
      .run()
  }

  function markFailedAttempt(rows: Array<{ id: number; attempts: number }>, error: unknown) {
    const reason = error instanceof Error ? error.message : String(error)
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
    })
    log.warn({ reason, leads: rows.length, ...backlog() }, 'could not mail the owner; trying again later')
  }

  /** Sends what is due; returns when to look again (ms since the epoch), or null when nothing waits. */
  async function deliverDue(): Promise<number | null> {
    const at = now()
    const due = db
      .select({ mail: outbox, lead: submissions })
      .from(outbox)
      .innerJoin(submissions, eq(submissions.id, outbox.submissionId))
      .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, new Date(at))))
      .orderBy(asc(outbox.id))
      .limit(mostPerDigest + settings.digestAfter)
      .all()
    const expired = due.filter(({ mail }) => at - mail.createdAt.getTime() >= dayMs)
    if (expired.length > 0) {
      db.update(outbox)
        .set({ status: 'failed' })
        .where(
          inArray(
            outbox.id,
            expired.map(({ mail }) => mail.id),
          ),
        )
        .run()
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
    const lead = (row: (typeof due)[number]): Lead => row.lead
    for (const row of waiting.slice(0, singles)) {
      try {
        await send(leadMail(lead(row), settings.publicUrl))
        markSent([row.mail.id], `lead-${row.lead.id}`)
      } catch (error) {
        markFailedAttempt([row.mail], error)
      }
    }
    const rest = waiting.slice(singles, singles + mostPerDigest)
    let digestAfterMs: number | null = null
    if (rest.length > 0) {
      const [last] = db
        .select({ at: max(outbox.sentAt) })
        .from(outbox)
        .where(and(gte(outbox.sentAt, windowStart), sql`${outbox.mailKey} LIKE 'digest-%'`))
        .all()
      if (last?.at) {
        digestAfterMs = last.at.getTime() + settings.digestWindowMs
      } else {
        try {
          await send(digestMail(rest.map(lead), settings.publicUrl))
          markSent(
            rest.map(({ mail }) => mail.id),
            `digest-${rest[0]!.mail.id}`,
          )
        } catch (error) {
          markFailedAttempt(
            rest.map(({ mail }) => mail),
            error,
          )
        }
      }
    }
    if (due.length > 0) log.info(backlog(), 'mailed the owner')
    const [next] = db
      .select({ at: min(outbox.nextAttemptAt) })
      .from(outbox)
      .where(eq(outbox.status, 'pending'))
      .all()
    if (!next?.at) return null
    return Math.max(next.at.getTime(), digestAfterMs ?? 0)
  }

  async function run() {
    if (stopped) return
    if (running) {
      runAgain = true
      return
    }
    running = true
    clearTimeout(timer)
    let wakeAt: number | null = null
    try {
      wakeAt = await deliverDue()
    } catch (error) {
      log.error({ err: error }, 'the outbox could not be read')
      wakeAt = now() + settings.retryBaseMs
    } finally {
      running = false
    }
    if (runAgain) {
      runAgain = false
      return void run()
    }
    if (wakeAt !== null && !stopped) {
      timer = setTimeout(() => void run(), Math.max(0, wakeAt - now()))
      timer.unref()
    }
  }

  const unsubscribe = events.subscribe((event) => {
    if (event.type === 'NEW_SUBMISSION') void run()
  })

  return {
    start() {
      const host = new URL(settings.smtpUrl).host
      log.info({ smtp: host, to: settings.to.length, ...backlog() }, 'mailing the owner about each lead')
      void run()
    },
    stop() {
      stopped = true
      unsubscribe()
      clearTimeout(timer)
      void transport?.then((opened) => opened.close())
    },
  }
}
