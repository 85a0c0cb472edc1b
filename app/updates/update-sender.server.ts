import { and, asc, eq, lte, sql } from 'drizzle-orm'
import type { SendMailOptions } from 'nodemailer'
import type { FarmDatabase } from '#app/data/database.server'
import { deliveries, subscribers, updates } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { createAcceptedLedger } from '#app/delivery/accepted.server'
import { hasGivenUp, retryDelayMs } from '#app/delivery/backoff'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import { deliveryRecord, soonestDue, waiting } from '#app/delivery/record.server'
import { refusedForGood, serverWords, smtpVerdict } from '#app/delivery/smtp-refusals'
import type { Log } from '#app/log'
import type { SignedLinks } from './signed-links.server'
import { fillPlaceholders } from '#app/writing/placeholders'
import { placeholderValues, updateBody, whySubscribed, type Recipient } from './update'

/** Who update mails come from, and how they are sent. */
export interface UpdateMailSettings {
  smtpUrl: string
  from: string
  /** The name beside it: NOTIFY_FROM's, else the farm's. */
  fromName: string
  /** The owner's own mailbox: Reply-To, the test's recipient, and the mailto way to unsubscribe. */
  owner: string
  farmName: string
  siteUrl: string
  /** UPDATES_PER_MINUTE: so a shared mail account is not blocked for sending too fast. */
  perMinute: number
}

/** One recipient's update mail: from the farm, with RFC 8058 one-click unsubscribe headers. */
export function updateMail(
  settings: UpdateMailSettings,
  update: { id: number; subject: string; text: string },
  to: string,
  recipient: Recipient,
  unsubscribeUrl: string,
  /** Kept the same on any resend, so a mail program can drop the copy; none for a test. */
  messageId?: string,
): SendMailOptions {
  const body = updateBody({
    text: update.text,
    farmName: settings.farmName,
    siteUrl: settings.siteUrl,
    recipient,
    unsubscribeUrl,
  })
  return {
    from: { name: settings.fromName, address: settings.from },
    to: { name: '', address: to },
    replyTo: settings.owner,
    envelope: { from: settings.from, to: [to] },
    subject: fillPlaceholders(update.subject, placeholderValues(recipient, settings.farmName)),
    text: body.text,
    html: body.html,
    ...(messageId ? { messageId } : {}),
    // Which list this is, with the farm's name (RFC 2919): mail programs file it, filters know it.
    list: {
      id: {
        url: `updates.${settings.from.slice(settings.from.lastIndexOf('@') + 1)}`,
        comment: `${settings.farmName} updates`,
      },
    },
    headers: {
      // One header with both ways (RFC 2369), the HTTPS one first; the POST header makes it one click (RFC 8058).
      'List-Unsubscribe': `<${unsubscribeUrl}>, <mailto:${settings.owner}?subject=${encodeURIComponent(`Unsubscribe ${to}`)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      Precedence: 'bulk',
    },
  }
}

/**
 * Sends the updates' mails from their outbox rows, one at a time at UPDATES_PER_MINUTE, on its
 * own connection and its own clock, so the owner's lead mails and replies never wait behind a
 * campaign. A row is marked sent right after the server accepts it, with the same Message-ID on
 * any resend; a recipient who left before their turn is skipped; a 5xx for the address marks it
 * undeliverable; anything else waits (NOTIFY_RETRY_SECONDS, doubling) for up to a day.
 */
export function createUpdateSender({
  engine,
  db,
  writes,
  log,
  links,
  settings,
  retryBaseMs,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  writes: Writes
  log: Log
  links: SignedLinks
  /** The settings now: null while updates are off. */
  settings: () => UpdateMailSettings | null
  /** The first retry's wait (NOTIFY_RETRY_SECONDS), for a round that threw. */
  retryBaseMs: number
}) {
  const { now } = engine
  const transport = engine.smtp({ pool: true })

  const nextDue = db
    .select({
      mail: deliveries,
      update: { id: updates.id, subject: updates.subject, text: updates.text },
      to: {
        id: subscribers.id,
        email: subscribers.email,
        name: subscribers.name,
        addressKey: subscribers.addressKey,
        status: subscribers.status,
        addedBy: subscribers.addedBy,
        subscribedAt: subscribers.subscribedAt,
      },
    })
    .from(deliveries)
    .innerJoin(updates, eq(updates.id, deliveries.updateId))
    .innerJoin(subscribers, eq(subscribers.id, deliveries.subscriberId))
    .where(and(eq(deliveries.kind, 'update-mail'), waiting, lte(deliveries.nextAttemptAt, sql.placeholder('now'))))
    .orderBy(asc(deliveries.nextAttemptAt), asc(deliveries.id))
    .limit(1)
    .prepare()
  const record = deliveryRecord(db)

  let nextSendAt = 0
  // After the server could not be reached, every mail waits until then.
  let pausedUntil = 0
  let failuresInARow = 0
  const accepted = createAcceptedLedger<{ id: number; at: Date }>({
    mark: ({ id, at }) => record.sent([id], at),
    ids: ({ id }) => [id],
    writes,
    log,
    what: 'an update',
  })

  /** Sends the next due mail, if any; says when to look again (ms since the epoch), or null for never. */
  async function sendNext(): Promise<number | null> {
    const at = now()
    const current = settings()
    // Off: what was queued waits, to go once updates are on again.
    if (engine.stopping || !current) return null
    if (at < Math.max(nextSendAt, pausedUntil)) return Math.max(nextSendAt, pausedUntil)
    if (!accepted.markHeld()) return at + 1_000
    const due = nextDue.get({ now: at })
    if (!due) {
      return soonestDue(db, 'update-mail')
    }
    const { mail, update, to } = due
    if (to.status !== 'subscribed') {
      await writes.whenFree(() => record.skipped(mail.id, `The subscriber is ${to.status}.`))
      return at
    }
    if (hasGivenUp(mail.failingSince, at)) {
      await writes.whenFree(() => record.gaveUp([mail]))
      return at
    }
    nextSendAt = at + 60_000 / current.perMinute
    const domain = current.from.slice(current.from.lastIndexOf('@') + 1)
    try {
      await transport.send(
        current.smtpUrl,
        updateMail(
          current,
          update,
          to.email,
          { name: to.name, why: whySubscribed(to) },
          links.unsubscribeUrl(to.id, to.addressKey),
          `<${mail.receiptKey}@${domain}>`,
        ),
      )
    } catch (error) {
      const reason = serverWords(error)
      const verdict = smtpVerdict(error)
      if (refusedForGood(verdict)) {
        failuresInARow = 0
        const addressGone = verdict === 'address-gone'
        await writes.whenFree(() =>
          db.transaction((tx) => {
            deliveryRecord(tx).failed([mail.id], reason)
            if (addressGone) {
              tx.update(subscribers)
                .set({ status: 'undeliverable', lastError: reason, unsubscribedAt: new Date(now()) })
                .where(eq(subscribers.id, to.id))
                .run()
            }
          }),
        )
        log.warn(
          { update: update.id, reason },
          addressGone
            ? 'the mail server refused an address for good; it gets no more updates'
            : 'the mail server refused this update for one recipient',
        )
        return now()
      }
      // A 4xx for one address (greylisting, a full mailbox) waits alone; anything else (the server
      // unreachable, busy, refusing the sender) holds the whole update until it is tried again.
      const justThisAddress = verdict === 'recipient-later'
      const retryAt = now() + retryDelayMs(retryBaseMs, justThisAddress ? mail.attempts + 1 : ++failuresInARow)
      if (!justThisAddress) pausedUntil = retryAt
      await writes.whenFree(() => record.retrying(mail, new Date(retryAt), reason, new Date(at)))
      log.warn({ update: update.id, reason }, 'could not send an update; trying again later')
      return justThisAddress ? now() : retryAt
    }
    failuresInARow = 0
    await accepted.accepted({ id: mail.id, at: new Date(now()) })
    return nextSendAt
  }

  const rounds = engine.run({
    name: 'updates',
    round: sendNext,
    retryMs: retryBaseMs,
    // Its rounds keep their own pace: a lead's commit never makes one come sooner.
    mayHaveWork: () => false,
    lastly: accepted.markBeforeStop,
  })

  return {
    /** Looks at once: an update was just queued. */
    wake: rounds.wake,
    /** Sends one mail now, outside the queue: the owner's test. */
    sendNow: (mail: SendMailOptions) => {
      const current = settings()
      return current ? transport.send(current.smtpUrl, mail) : Promise.reject(new Error('Updates are off.'))
    },
    /** After a change of settings: a pause for the old mail server's sake ends at once. */
    settingsChanged() {
      pausedUntil = 0
      failuresInARow = 0
      rounds.wake()
    },
  }
}
