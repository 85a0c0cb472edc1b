import { randomBytes } from 'node:crypto'
import type { SendMailOptions } from 'nodemailer'
import type { ReplyRow } from '#app/data/schema'
import { catalogs } from '#app/language/catalogs.server'
import { momentWords } from '#app/language/intl'
import { keptLanguage } from '#app/language/languages'

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

/**
 * The mail itself, in the language the visitor wrote in (said in its Content-Language): the
 * owner's words then the visitor's message quoted with its date, or the acknowledgement's fixed
 * text; threaded by the Message-IDs kept with it. Addresses are given as data (envelope and
 * all), never parsed from text.
 */
export function visitorMail(
  reply: ReplyRow,
  lead: { message: string; createdAt: Date; language: string | null },
  settings: VisitorMailSettings,
): SendMailOptions {
  const language = keptLanguage(lead.language)
  const messages = catalogs[language]
  const farm = settings.farmName
  const references = reply.references ? reply.references.split(' ') : []
  const ask =
    reply.subscriberId !== null && settings.confirmUrl
      ? `\n\n${messages.mailAskForUpdates({ farm, link: settings.confirmUrl(reply.subscriberId, reply.addressKey, reply.createdAt) })}`
      : ''
  const when = momentWords(language, lead.createdAt.getTime(), settings.timeZone)
  const text =
    reply.kind === 'reply'
      ? `${reply.text}\n\n${messages.mailYouWrote({ when })}\n${quoted(lead.message)}\n`
      : `${reply.text}${ask}\n\n-- \n${messages.mailFooter()}\n`
  return {
    from: { name: settings.fromName, address: settings.from },
    to: { name: '', address: reply.toAddress },
    replyTo: settings.replyTo,
    envelope: { from: settings.from, to: [reply.toAddress] },
    subject:
      reply.kind === 'reply'
        ? messages.mailReplySubject({ farm })
        : reply.kind === 'confirmation'
          ? messages.mailConfirmationSubject({ farm })
          : messages.mailAcknowledgementSubject({ farm }),
    text,
    messageId: reply.messageId,
    ...(references.length > 0 ? { inReplyTo: references.at(-1), references } : {}),
    headers: {
      'Content-Language': language,
      // What the site sends unasked is said to be automatic (RFC 3834), so no out-of-office answers it.
      ...(reply.kind === 'reply' ? {} : { 'Auto-Submitted': 'auto-replied' }),
    },
  }
}
