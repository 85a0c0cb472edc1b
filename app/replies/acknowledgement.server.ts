import { createHmac, randomBytes } from 'node:crypto'
import { and, count, eq, gt, lt, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { mailStops } from '#app/data/mail-stops.server'
import { farmTexts, replies, unaskedMails, type SubmissionRow } from '#app/data/schema'
import { keptKey } from '#app/data/signing-keys.server'
import type { Log } from '#app/log'
import { catalogs } from '#app/language/catalogs.server'
import type { Subscribers } from '#app/updates/subscribers.server'
import { mailboxKey } from '#app/leads/mailbox'
import { fillPlaceholders } from '#app/writing/placeholders'
import type { VisitorMails } from './reply-delivery.server'
import { newMessageId } from './reply-mail.server'
import { keptLanguage } from '#app/language/languages'

const englishMessages = catalogs.en

/** The acknowledgement's words until the owner writes their own, with its placeholder, as the owner's settings show them (English). */
export const defaultAcknowledgement = englishMessages.acknowledgementText({ farm: '{farm}' })

export const acknowledgementKey = 'acknowledgement'

const dayMs = 24 * 60 * 60 * 1000
const hourMs = 60 * 60 * 1000
/** Leads kept before senders were recorded (drizzle/0017), or sent by no one in particular, share one sender's share. */
const unknownSender = 'unknown'
/**
 * Anyone can type anyone's address into the form: past this many acknowledgements in an hour
 * (more than a farm's busiest hour of real enquiries), no more go out until the hour has passed.
 */
export const mostAcknowledgementsPerHour = 60
/** So one sender cannot spend the hour's acknowledgements on other people's addresses. */
export const mostAcknowledgementsPerSenderPerHour = 3

/**
 * The one mail a clean lead's visitor gets from the farm unasked, queued inside the transaction
 * that keeps the lead: the automatic "we got your message" (VISITOR_ACK), and/or the question
 * whether they want the farm's updates (UPDATES), with its confirm link. It is the farm's fixed
 * text, never a word the visitor typed. At most one per address a day, three an hour per sender,
 * and at most `mostAcknowledgementsPerHour` in all.
 */
export function createAcknowledgements({
  db,
  farmName,
  from,
  log,
  acknowledging = () => true,
  consent = () => null,
  visitorMails,
}: {
  db: FarmDatabase
  farmName: () => string
  from: () => string
  log: Log
  /** Where the mail it queues is owed. */
  visitorMails: VisitorMails
  /** Whether the mail says "we got your message" (VISITOR_ACK). */
  acknowledging?: () => boolean
  /** With UPDATES: who may be asked to confirm they want updates. */
  consent?: () => Subscribers | null
}) {
  const stopped = mailStops(db)
  const ownText = db
    .select({ text: farmTexts.text })
    .from(farmTexts)
    .where(eq(farmTexts.key, acknowledgementKey))
    .prepare()
  // The salt of the unasked mails' record, made at the first start and kept with the signing keys.
  const salt = keptKey(db, 'unasked-mails', () => randomBytes(32).toString('base64url'))
  const hash = (text: string) => createHmac('sha256', salt).update(text).digest('base64url')
  const mailboxHashOf = (address: string) => hash(`mailbox:${mailboxKey(address)}`)
  const since = sql.placeholder('since')
  const toMailboxSince = db
    .select({ id: unaskedMails.id })
    .from(unaskedMails)
    .where(and(eq(unaskedMails.mailboxHash, sql.placeholder('mailbox')), gt(unaskedMails.sentAt, since)))
    .limit(1)
    .prepare()
  const fromSenderSince = db
    .select({ count: count() })
    .from(unaskedMails)
    .where(and(eq(unaskedMails.senderKey, sql.placeholder('sender')), gt(unaskedMails.sentAt, since)))
    .prepare()
  const inAllSince = db.select({ count: count() }).from(unaskedMails).where(gt(unaskedMails.sentAt, since)).prepare()
  const record = db
    .insert(unaskedMails)
    .values({
      sentAt: sql.placeholder('at'),
      mailboxHash: sql.placeholder('mailbox'),
      senderKey: sql.placeholder('sender'),
    })
    .prepare()
  const forgetOlder = db.delete(unaskedMails).where(lt(unaskedMails.sentAt, since)).prepare()
  const anyMailTo = db
    .select({ id: replies.id })
    .from(replies)
    .where(eq(replies.submissionId, sql.placeholder('submissionId')))
    .limit(1)
    .prepare()
  const insert = db.insert(replies)

  return {
    /** Whether a clean lead is owed a mail now (the acknowledgement, or the ask): else none is queued. */
    owing: () => acknowledging() || consent() !== null,
    /** Who sent a lead (an address, or an IPv6 /64), as its row keeps it: a salted hash. */
    senderKey: (sender: string) => hash(`sender:${sender}`),

    /**
     * For a lead just kept or read again: queues its acknowledgement when it is owed one. One the
     * owner already answered (while it waited to be read again) is owed none. Its sender (the
     * row's `senderKey`) spends one of their acknowledgements for the hour, whichever path the
     * lead took; the caps count the record of unasked mails, which outlives the leads.
     */
    queueFor(row: SubmissionRow, now: Date = row.createdAt): void {
      const clean = row.spamReasons === null && row.reanalyseAt === null && row.analysis !== null
      const saying = acknowledging()
      const asked = consent()
      // Off (neither the acknowledgement nor the ask): no query at all on the lead's commit.
      if (!clean || (!saying && !asked) || anyMailTo.get({ submissionId: row.id })) return
      const addressKey = mailboxKey(row.email)
      // It complained, or bounced for good and has not written since: nothing unasked goes to it.
      if (stopped(addressKey)) return
      const asking = asked?.mayAsk(row.email, now) ?? false
      if (!saying && !asking) return
      const at = now.getTime()
      const mailbox = mailboxHashOf(row.email)
      const sender = row.senderKey ?? unknownSender
      if (toMailboxSince.get({ since: at - dayMs, mailbox })) return
      if ((fromSenderSince.get({ since: at - hourMs, sender })?.count ?? 0) >= mostAcknowledgementsPerSenderPerHour) {
        return
      }
      if ((inAllSince.get({ since: at - hourMs })?.count ?? 0) >= mostAcknowledgementsPerHour) {
        log.warn({ lead: row.id }, 'not acknowledging this lead: the hour’s acknowledgements are all sent')
        return
      }
      forgetOlder.run({ since: at - dayMs })
      record.run({ at: now, mailbox, sender })
      // The owner's own words as they wrote them; else the site's, in the language the visitor wrote in.
      const own = saying ? ownText.get()?.text : undefined
      const messages = catalogs[keptLanguage(row.language)]
      const farm = farmName()
      const text =
        own !== undefined
          ? fillPlaceholders(own, { farm })
          : saying
            ? messages.acknowledgementText({ farm })
            : messages.askOnlyText({ farm })
      const written = insert
        .values({
          submissionId: row.id,
          kind: saying ? 'acknowledgement' : 'confirmation',
          subscriberId: asking ? asked!.ask(row, now) : null,
          toAddress: row.email,
          addressKey,
          text,
          messageId: newMessageId(from()),
          createdAt: now,
        })
        .returning({ id: replies.id })
        .get()
      visitorMails.owe(db, written.id, row.id, now)
    },
  }
}

export type Acknowledgements = ReturnType<typeof createAcknowledgements>
