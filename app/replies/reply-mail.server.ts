import { randomBytes } from 'node:crypto'
import type { SendMailOptions } from 'nodemailer'
import type { ReplyRow } from '#app/data/schema'
import { longDate, timeOfDay, zoneWords } from '#app/clock/dates'

/** Who mails visitors: From the farm's sending address, Reply-To the owner's own mailbox. */
export interface VisitorMailSettings {
  from: string
  /** The name beside it: NOTIFY_FROM's, else the farm's, so a visitor sees who writes. */
  fromName: string
  replyTo: string
  farmName: string
  /** The farm's clock: the visitor is told when they wrote on it. */
  timeZone: string
  /** With UPDATES: the signed link that asks this mailbox to confirm it wants updates. */
  confirmUrl?: (subscriberId: number, addressKey: string, askedAt: Date) => string
}

/** A Message-ID of the farm's own domain, unique to one mail, made when the mail is queued and kept. */
export function newMessageId(from: string): string {
  return `<${Date.now().toString(36)}.${randomBytes(12).toString('base64url')}@${from.slice(from.lastIndexOf('@') + 1)}>`
}

// Every line break the visitor could type, a lone CR too (a mail program shows it as one): no
// line of theirs may leave the quote and read as the farm's own words.
const quoted = (text: string) =>
  text
    .split(/\r\n|\r|\n|\u2028|\u2029/)
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n')

/** When the visitor wrote, on the farm's clock, in words fixed here: '23 November 2026 at 09:30 London time'. */
const wroteAt = (ms: number, zone: string) => `${longDate(ms, zone)} at ${timeOfDay(ms, zone)} ${zoneWords(zone)}`

/** What the farm tells anyone who gets an acknowledgement: a stranger may have typed their address. */
export const acknowledgementFooter =
  'You get this mail because this address was given on our contact form. If that was not you, please ignore it.'

/** The question whether they want updates, with their link: only their own click on its button subscribes them. */
export const askForUpdates = (farmName: string, link: string) =>
  `Would you like ${farmName}’s updates by email: new products, what is in season, and offers? If so, say yes here (the link works for 7 days):\n${link}\n\nIf you do nothing, you will get no updates.`

/**
 * The mail itself: the owner's words then the visitor's message quoted with its date, or the
 * acknowledgement's fixed text; threaded by the Message-IDs kept with it. Addresses are given
 * as data (envelope and all), never parsed from text.
 */
export function visitorMail(
  reply: ReplyRow,
  lead: { message: string; createdAt: Date },
  settings: VisitorMailSettings,
): SendMailOptions {
  const references = reply.references ? reply.references.split(' ') : []
  const ask =
    reply.subscriberId !== null && settings.confirmUrl
      ? `\n\n${askForUpdates(settings.farmName, settings.confirmUrl(reply.subscriberId, reply.addressKey, reply.createdAt))}`
      : ''
  const text =
    reply.kind === 'reply'
      ? `${reply.text}\n\nOn ${wroteAt(lead.createdAt.getTime(), settings.timeZone)}, you wrote:\n${quoted(lead.message)}\n`
      : `${reply.text}${ask}\n\n-- \n${acknowledgementFooter}\n`
  return {
    from: { name: settings.fromName, address: settings.from },
    to: { name: '', address: reply.toAddress },
    replyTo: settings.replyTo,
    envelope: { from: settings.from, to: [reply.toAddress] },
    subject:
      reply.kind === 'reply'
        ? `Re: Your message to ${settings.farmName}`
        : reply.kind === 'confirmation'
          ? `Would you like updates from ${settings.farmName}?`
          : `We got your message — ${settings.farmName}`,
    text,
    messageId: reply.messageId,
    ...(references.length > 0 ? { inReplyTo: references.at(-1), references } : {}),
    // What the site sends unasked is said to be automatic (RFC 3834), so no out-of-office answers it.
    ...(reply.kind === 'reply' ? {} : { headers: { 'Auto-Submitted': 'auto-replied' } }),
  }
}
