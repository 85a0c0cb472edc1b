import { eq, sql } from 'drizzle-orm'
import type { SendMailOptions } from 'nodemailer'
import type { FarmDatabase } from '#app/data/database.server'
import { subscribers, updates, type SubscriberRow } from '#app/data/schema'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { Batch, OwedRow, Verdict } from '#app/delivery/sender.server'
import { mailVerdict } from '#app/delivery/smtp-refusals.server'
import type { SignedLinks } from './signed-links.server'
import { fillPlaceholders } from '#app/writing/placeholders'
import { placeholderValues, updateBody, type Recipient } from './update'
import { updateFooter } from './update-footer.server'

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
  /** The farm's clock: the day a subscriber said yes is on its calendar. */
  timeZone: string
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
  const body = updateBody({ text: update.text, farmName: settings.farmName, recipient, unsubscribeUrl })
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

type UpdateItem = {
  update: { id: number; subject: string; text: string }
  to: Pick<SubscriberRow, 'id' | 'email' | 'name' | 'addressKey' | 'status' | 'addedBy' | 'subscribedAt' | 'language'>
}

/**
 * Sends the updates' mails from their outbox rows, one at a time at UPDATES_PER_MINUTE, on its
 * own connection and its own clock, so the owner's lead mails and replies never wait behind a
 * campaign; with the same Message-ID on any resend. A recipient who left before their turn is
 * skipped; an address the server says is gone is marked undeliverable with its failed mail.
 */
export function createUpdateSender({
  engine,
  db,
  links,
  settings,
  retryBaseMs,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  links: SignedLinks
  /** The settings now: null while updates are off. */
  settings: () => UpdateMailSettings | null
  /** The first retry's wait (NOTIFY_RETRY_SECONDS), doubling. */
  retryBaseMs: number
}) {
  const { now } = engine
  const transport = engine.smtp({ pool: true })
  const updateOf = db
    .select({ id: updates.id, subject: updates.subject, text: updates.text })
    .from(updates)
    .where(eq(updates.id, sql.placeholder('id')))
    .prepare()
  const subscriberOf = db
    .select({
      id: subscribers.id,
      email: subscribers.email,
      name: subscribers.name,
      addressKey: subscribers.addressKey,
      status: subscribers.status,
      addedBy: subscribers.addedBy,
      subscribedAt: subscribers.subscribedAt,
      language: subscribers.language,
    })
    .from(subscribers)
    .where(eq(subscribers.id, sql.placeholder('id')))
    .prepare()
  const itemOf = (row: OwedRow): UpdateItem | null => {
    const update = updateOf.get({ id: row.updateId })
    const to = subscriberOf.get({ id: row.subscriberId })
    return update && to ? { update, to } : null
  }

  async function send({ rows, item }: Batch<UpdateItem>, current: UpdateMailSettings): Promise<Verdict> {
    const { update, to } = item
    if (to.status !== 'subscribed') return { skipped: `The subscriber is ${to.status}.` }
    const domain = current.from.slice(current.from.lastIndexOf('@') + 1)
    const unsubscribeUrl = links.unsubscribeUrl(to.id, to.addressKey)
    const mail = updateMail(
      current,
      update,
      to.email,
      { name: to.name, footer: updateFooter(to, current, unsubscribeUrl) },
      unsubscribeUrl,
      `<${rows[0]!.receiptKey}@${domain}>`,
    )
    try {
      await transport.send(current.smtpUrl, mail)
    } catch (error) {
      return mailVerdict(error)
    }
    return { sent: true }
  }

  const rounds = engine.deliver<UpdateItem, UpdateMailSettings>({
    kind: 'update-mail',
    name: 'updates',
    setup: settings,
    retryBaseMs,
    mostRowsPerRound: () => 1,
    paceMs: (current) => 60_000 / current.perMinute,
    batchesOf: (rows) => ({
      batches: rows.flatMap((row) => {
        const item = itemOf(row)
        return item ? [{ rows: [row], item }] : []
      }),
    }),
    send,
    settled(tx, rows, state, verdict) {
      if (state !== 'failed' || !verdict || !('refused' in verdict) || !verdict.gone) return
      for (const row of rows) {
        tx.update(subscribers)
          .set({ status: 'undeliverable', lastError: verdict.refused, unsubscribedAt: new Date(now()) })
          .where(eq(subscribers.id, row.subscriberId!))
          .run()
      }
    },
    words: {
      later: 'could not send an update; trying again later',
      refused: 'the mail server refused this update for one recipient',
      gaveUp: 'gave up sending an update after a day of trying',
    },
    // Its rounds keep their own pace: a lead's commit never makes one come sooner.
    mayHaveWork: () => false,
  })

  return {
    /** Looks at once: an update was just queued, or the settings changed. */
    wake: rounds.wake,
    /** Sends one mail now, outside the queue: the owner's test. */
    sendNow: (mail: SendMailOptions) => {
      const current = settings()
      return current ? transport.send(current.smtpUrl, mail) : Promise.reject(new Error('Updates are off.'))
    },
  }
}
