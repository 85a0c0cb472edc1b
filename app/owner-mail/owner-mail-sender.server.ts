import { and, asc, countDistinct, eq, gte, max, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { deliveries, replies, submissions, type DeliveryRow, type SubmissionRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { createAcceptedLedger } from '#app/delivery/accepted.server'
import { hasGivenUp, retryDelayMs } from '#app/delivery/backoff'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import { backlogOf, deliveryRecord, dueOf, soonestDue } from '#app/delivery/record.server'
import { serverWords, smtpVerdict } from '#app/delivery/smtp-refusals'
import { leadView } from '#app/leads/lead-view.server'
import type { Log } from '#app/log'
import { digestMail, leadMail, type Lead, type OwnerMail } from './owner-mail.server'

/** How the owner is mailed about leads (SMTP_URL, NOTIFY_*, PUBLIC_URL). */
export interface OwnerMailSettings {
  /** smtp:// or smtps://, with any credentials in it; never logged. */
  smtpUrl: string
  to: string[]
  /** The address mails come from (NOTIFY_FROM's, else the first owner address). */
  from: string
  /** NOTIFY_FROM's name, when it has one; visitors' mails name the farm without it. */
  fromName: string | null
  /** Past this many mails in a digest window, leads wait for one digest per window. */
  digestAfter: number
  digestWindowMs: number
  /** The site's public address, for a link to the lead in each mail; none without it. */
  publicUrl: string | null
}

// One digest names every lead that waited for it, up to this many (and up to its bytes).
const mostPerDigest = 5_000
// Refused mails are halved and sent again; a round sends at most this many.
const mostMailsPerRound = 40

/**
 * Mails the owner about every lead in the outbox. Each row is marked sent only once the
 * mail server has accepted the mail it went in; what fails waits and is tried again, for up
 * to a day. Past `digestAfter` mails within a digest window, leads wait for one digest mail
 * per window, so a burst cannot flood the owner's mailbox.
 */
export function createOutboxSender({
  engine,
  db,
  settings,
  retryBaseMs,
  log,
  writes,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  /** The settings now: null while the owner's mail is not set up. */
  settings: () => OwnerMailSettings | null
  /** The first retry waits this long (NOTIFY_RETRY_SECONDS); each next one twice as long (with jitter), up to a day in all. */
  retryBaseMs: number
  log: Log
  writes: Writes
}) {
  const { now } = engine
  const transport = engine.smtp()
  // The settings this round sends with, read once at its start.
  let current: OwnerMailSettings
  // While leads wait for the next digest, a new lead can only join them: no need to look.
  let digestWaitsUntil = 0

  const record = deliveryRecord(db)

  /** The mails that wait, the owner's and the visitors', and how long the oldest has waited. */
  function backlog() {
    const { unsent, oldest } = backlogOf(db, ['owner-mail', 'visitor-mail'])
    return { unsent, oldestUnsentSeconds: oldest ? Math.round((now() - oldest.getTime()) / 1000) : 0 }
  }

  // A lead's mail has its own Message-ID, kept with it: the visitor's answer to the owner's own
  // reply from their mail program names it in its References, and so finds its lead.
  const send = (mail: OwnerMail, key: string | null) =>
    transport.send(current.smtpUrl, {
      ...(key ? { messageId: `<${key}@${current.from.slice(current.from.lastIndexOf('@') + 1)}>` } : {}),
      from: current.fromName ? { name: current.fromName, address: current.from } : current.from,
      to: current.to,
      replyTo: mail.replyTo,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      // Sent by the site, not a person: no out-of-office answers it (RFC 3834).
      headers: { 'Auto-Submitted': 'auto-generated' },
    })

  const accepted = createAcceptedLedger<{ ids: number[]; mailKey: string; at: Date }>({
    mark: ({ ids, mailKey, at }) => record.sent(ids, at, mailKey),
    ids: ({ ids }) => ids,
    writes,
    log,
    what: 'a mail to the owner',
  })
  // A lead's mail, or (with `answerId`) the mail about the visitor's answer to the farm.
  const insert = db
    .insert(deliveries)
    .values({
      kind: 'owner-mail',
      submissionId: sql.placeholder('submissionId'),
      replyId: sql.placeholder('answerId'),
      nextAttemptAt: sql.placeholder('at'),
      createdAt: sql.placeholder('at'),
      receiptKey: sql`'lead.' || lower(hex(randomblob(16)))`,
    })
    .prepare()
  const ownerMails = eq(deliveries.kind, 'owner-mail')

  async function markFailedAttempt(rows: DeliveryRow[], error: unknown) {
    const reason = serverWords(error)
    const at = new Date(now())
    await writes.whenFree(() =>
      db.transaction((tx) => {
        for (const row of rows) {
          const retryAt = new Date(now() + retryDelayMs(retryBaseMs, row.attempts + 1))
          deliveryRecord(tx).retrying(row, retryAt, reason, at)
        }
      }),
    )
    log.warn({ reason, leads: rows.length, ...backlog() }, 'could not mail the owner; trying again later')
  }

  async function markRefused(row: DeliveryRow, lead: number, error: unknown) {
    const reason = serverWords(error)
    await writes.whenFree(() => record.failed([row.id], reason))
    log.error({ lead, reason }, 'the mail server refused the mail about this lead; it is in the inbox')
  }

  type Due = { mail: DeliveryRow; lead: Lead }

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
            current.publicUrl,
          )
        : null
    const rows = digest ? due.slice(0, digest.leads) : due
    // Stopping: what is left stays due for the next start, never cut off half-sent.
    if (engine.stopping) return
    if (round.mailsLeft <= 0) {
      return markFailedAttempt(
        rows.map(({ mail }) => mail),
        new Error('too many refused mails this round'),
      )
    }
    round.mailsLeft--
    try {
      await send(
        digest ? digest.mail : leadMail(rows[0]!.lead, current.publicUrl),
        digest ? null : rows[0]!.mail.receiptKey,
      )
    } catch (error) {
      if (smtpVerdict(error) !== 'message-refused')
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
    await accepted.accepted({
      ids: rows.map(({ mail }) => mail.id),
      mailKey: rows.length === 1 ? `lead-${rows[0]!.lead.id}` : `digest-${rows[0]!.mail.id}`,
      at: new Date(now()),
    })
  }

  /** Sends what is due; returns when to look again (ms since the epoch) and whether only the digest's window holds leads back. */
  async function deliverDue(): Promise<{ wakeAt: number | null; digestWaiting: boolean }> {
    accepted.markHeld()
    const live = settings()
    // Off: what was owed waits, to go once mail is set up again.
    if (!live) return { wakeAt: null, digestWaiting: false }
    current = live
    const round = { accepted: false, mailsLeft: mostMailsPerRound }
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

  engine.run({
    name: 'owner mail',
    round: async () => {
      const delivered = await deliverDue()
      digestWaitsUntil = delivered.digestWaiting && delivered.wakeAt !== null ? delivered.wakeAt : 0
      return delivered.wakeAt
    },
    retryMs: retryBaseMs,
    mayHaveWork: () => now() >= digestWaitsUntil,
    lastly: accepted.markBeforeStop,
  })

  return {
    /** How many mails wait to be sent, and how long the oldest has waited. */
    backlog,
    /** Inside the transaction that keeps a visitor's answer: the owner is mailed it, as about a new lead. */
    queueAnswer(lead: SubmissionRow, answerId: number, at: Date): void {
      if (!settings()) return
      insert.run({ submissionId: lead.id, answerId, at })
    },
    /** Inside the transaction that keeps a lead (or reads it again): its mail to the owner, never for spam. */
    queueFor(row: SubmissionRow, at: Date): void {
      if (row.spamReasons !== null || row.reanalyseAt !== null || !settings()) return
      insert.run({ submissionId: row.id, answerId: null, at })
    },
  }
}
