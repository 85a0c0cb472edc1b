import type { FarmDatabase } from '#app/data/database.server'
import type { DeliveryRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { createAcceptedLedger } from '#app/delivery/accepted.server'
import { retryDelayMs } from '#app/delivery/backoff'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import { deliveryRecord } from '#app/delivery/record.server'
import { serverWords, smtpVerdict } from '#app/delivery/smtp-refusals'
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

/** A lead's row in the outbox, and the lead it tells of. */
export type Due = { mail: DeliveryRow; lead: Lead }

/** One round of sending: the settings read at its start, whether the server took a mail yet, and how many more it may try. */
export type Round = { settings: OwnerMailSettings; accepted: boolean; mailsLeft: number }

/** The owner's mails put in the mail server's hands, and what its answer marks on their rows. */
export function createOwnerMailSending({
  engine,
  db,
  writes,
  log,
  retryBaseMs,
  backlog,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  writes: Writes
  log: Log
  retryBaseMs: number
  /** What waits, for the log. */
  backlog: () => Record<string, number>
}) {
  const { now } = engine
  const transport = engine.smtp()
  const record = deliveryRecord(db)

  // A lead's mail has its own Message-ID, kept with it: the visitor's answer to the owner's own
  // reply from their mail program names it in its References, and so finds its lead.
  const send = (settings: OwnerMailSettings, mail: OwnerMail, key: string | null) =>
    transport.send(settings.smtpUrl, {
      ...(key ? { messageId: `<${key}@${settings.from.slice(settings.from.lastIndexOf('@') + 1)}>` } : {}),
      from: settings.fromName ? { name: settings.fromName, address: settings.from } : settings.from,
      to: settings.to,
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

  /**
   * One mail for these leads: a lead mail for one, a digest for more (of as many as fit its
   * bytes; the rest stay due for the next). When the server refuses it for what is in it, the
   * leads are halved and sent again, down to one lead, so one lead the server will not take
   * does not hold back the rest; that one is marked failed only when the server took another
   * mail this round (else it refuses everything, and all wait and retry). A round tries a
   * bounded number of mails.
   */
  async function sendLeads(due: Due[], round: Round): Promise<void> {
    const digest =
      due.length > 1
        ? digestMail(
            due.map(({ lead }) => lead),
            round.settings.publicUrl,
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
        round.settings,
        digest ? digest.mail : leadMail(rows[0]!.lead, round.settings.publicUrl),
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

  return { sendLeads, accepted }
}

export type OwnerMailSending = ReturnType<typeof createOwnerMailSending>
