import { and, asc, eq, lte, sql } from 'drizzle-orm'
import type { SendMailOptions } from 'nodemailer'
import type { FarmDatabase } from '#app/data/database.server'
import { subscribers, updateMails, updates } from '#app/data/schema'
import { isBusy, type Writes } from '#app/data/writes.server'
import type { Log } from '#app/log'
import { retryDelayMs } from '#app/outbox/outbox.server'
import { isPermanentRefusal, isRefusedAddress, serverWords } from '#app/outbox/mail-refusals'
import { createMailTransport } from '#app/outbox/mail-transport.server'
import { roundsOnATimer, soonest } from '#app/outbox/rounds.server'
import type { SignedLinks } from './signed-links.server'
import { fillPlaceholders } from '#app/replies/placeholders'
import { placeholderValues, updateBody, whySubscribed, type Recipient } from './update'

const dayMs = 24 * 60 * 60 * 1000

/** Who update mails come from, and how they are sent. */
export interface UpdateMailSettings {
  smtpUrl: string
  from: string
  /** The owner's own mailbox: Reply-To, the test's recipient, and the mailto way to unsubscribe. */
  owner: string
  farmName: string
  siteUrl: string
  retryBaseMs: number
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
    from: settings.from,
    to: { name: '', address: to },
    replyTo: settings.owner,
    envelope: { from: settings.from, to: [to] },
    subject: fillPlaceholders(update.subject, placeholderValues(recipient, settings.farmName)),
    text: body.text,
    html: body.html,
    ...(messageId ? { messageId } : {}),
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
  db,
  writes,
  log,
  links,
  settings,
  now = Date.now,
}: {
  db: FarmDatabase
  writes: Writes
  log: Log
  links: SignedLinks
  settings: UpdateMailSettings
  now?: () => number
}) {
  const transport = createMailTransport(settings.smtpUrl, { pool: true })
  const sendAs = transport.send
  const intervalMs = 60_000 / settings.perMinute
  const domain = settings.from.slice(settings.from.lastIndexOf('@') + 1)

  const nextDue = db
    .select({
      mail: updateMails,
      update: { id: updates.id, subject: updates.subject, text: updates.text },
      to: {
        email: subscribers.email,
        name: subscribers.name,
        addressKey: subscribers.addressKey,
        status: subscribers.status,
        addedBy: subscribers.addedBy,
        subscribedAt: subscribers.subscribedAt,
      },
    })
    .from(updateMails)
    .innerJoin(updates, eq(updates.id, updateMails.updateId))
    .innerJoin(subscribers, eq(subscribers.id, updateMails.subscriberId))
    .where(and(eq(updateMails.status, 'queued'), lte(updateMails.nextAttemptAt, sql.placeholder('now'))))
    .orderBy(asc(updateMails.nextAttemptAt), asc(updateMails.id))
    .limit(1)
    .prepare()
  const setMail = (id: number, change: Partial<typeof updateMails.$inferInsert>) =>
    db.update(updateMails).set(change).where(eq(updateMails.id, id)).run()

  let nextSendAt = 0
  // After the server could not be reached, every mail waits until then.
  let pausedUntil = 0
  let failuresInARow = 0
  // Accepted by the server, not yet marked (another process held the database): never sent again.
  const acceptedUnmarked = new Map<number, Date>()

  function markAccepted() {
    for (const [id, at] of acceptedUnmarked) {
      setMail(id, { status: 'sent', sentAt: at, lastError: null })
      acceptedUnmarked.delete(id)
    }
  }

  /** Sends the next due mail, if any; says when to look again (ms since the epoch), or null for never. */
  async function sendNext(): Promise<number | null> {
    const at = now()
    if (at < Math.max(nextSendAt, pausedUntil)) return Math.max(nextSendAt, pausedUntil)
    try {
      markAccepted()
    } catch (error) {
      if (!isBusy(error)) throw error
      return at + 1_000
    }
    const due = nextDue.get({ now: at })
    if (!due) {
      return soonest(db, updateMails, updateMails.nextAttemptAt, eq(updateMails.status, 'queued'))
    }
    const { mail, update, to } = due
    if (to.status !== 'subscribed') {
      await writes.whenFree(() => setMail(mail.id, { status: 'skipped', lastError: `The subscriber is ${to.status}.` }))
      return at
    }
    if (mail.failingSince && at - mail.failingSince.getTime() >= dayMs) {
      await writes.whenFree(() =>
        setMail(mail.id, {
          status: 'failed',
          lastError: `Gave up after a day of trying. ${mail.lastError ?? ''}`.trim(),
        }),
      )
      return at
    }
    nextSendAt = at + intervalMs
    try {
      await sendAs(
        updateMail(
          settings,
          update,
          to.email,
          { name: to.name, why: whySubscribed(to) },
          links.unsubscribeUrl(mail.subscriberId, to.addressKey),
          `<update-${update.id}-${mail.subscriberId}@${domain}>`,
        ),
      )
    } catch (error) {
      const reason = serverWords(error)
      if (isPermanentRefusal(error)) {
        failuresInARow = 0
        const addressGone = isRefusedAddress(error)
        await writes.whenFree(() =>
          db.transaction((tx) => {
            tx.update(updateMails).set({ status: 'failed', lastError: reason }).where(eq(updateMails.id, mail.id)).run()
            if (addressGone) {
              tx.update(subscribers)
                .set({ status: 'undeliverable', lastError: reason, unsubscribedAt: new Date(now()) })
                .where(eq(subscribers.id, mail.subscriberId))
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
      // (A 421 closes the connection for everyone, and 4.7.x is a limit on the sender.)
      const { command, responseCode, response } = (error ?? {}) as {
        command?: unknown
        responseCode?: unknown
        response?: unknown
      }
      const justThisAddress =
        command === 'RCPT TO' && responseCode !== 421 && !/\b4\.7\.\d/.test(String(response ?? ''))
      const retryAt = now() + retryDelayMs(settings.retryBaseMs, justThisAddress ? mail.attempts + 1 : ++failuresInARow)
      if (!justThisAddress) pausedUntil = retryAt
      await writes.whenFree(() =>
        setMail(mail.id, {
          attempts: mail.attempts + 1,
          nextAttemptAt: new Date(retryAt),
          failingSince: mail.failingSince ?? new Date(at),
          lastError: reason,
        }),
      )
      log.warn({ update: update.id, reason }, 'could not send an update; trying again later')
      return justThisAddress ? now() : retryAt
    }
    failuresInARow = 0
    acceptedUnmarked.set(mail.id, new Date(now()))
    await writes.whenFree(markAccepted).catch((error: unknown) => {
      log.warn({ err: error }, 'an update went out but is not marked sent yet; marking it next')
    })
    return nextSendAt
  }

  const rounds = roundsOnATimer({
    round: sendNext,
    retryMs: settings.retryBaseMs,
    failed: (error) => log.error({ err: error }, 'the updates could not be read or marked'),
    now,
  })

  return {
    /** Looks at once: the site started, or an update was just queued. */
    wake: rounds.wake,
    /** Sends one mail now, outside the queue: the owner's test. */
    sendNow: sendAs,
    /** Stops sending; resolves once the mail on its way (if any) is settled, or after a few seconds. */
    async stop() {
      await Promise.race([rounds.stop(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())])
      transport.close()
    },
  }
}
