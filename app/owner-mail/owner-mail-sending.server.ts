import type { SmtpTransport } from '#app/delivery/smtp-transport.server'
import { serverWords, smtpVerdict } from '#app/delivery/smtp-refusals.server'
import type { Batch, Verdict } from '#app/delivery/sender.server'
import { digestMail, leadMail, type Lead, type OwnerMail } from './owner-mail.server'

/** How the owner is mailed about leads (SMTP_URL, NOTIFY_*, PUBLIC_URL). */
export interface OwnerMailSettings {
  /** smtp:// or smtps://, with any credentials in it; never logged. */
  smtpUrl: string
  to: string[]
  /** The address mails come from (NOTIFY_FROM's, else the first owner address). */
  from: string
  /** NOTIFY_FROM's name, else the farm's. */
  fromName: string
  /** Past this many mails in a digest window, leads wait for one digest per window. */
  digestAfter: number
  digestWindowMs: number
  /** The site's public address, for a link to the lead in each mail; none without it. */
  publicUrl: string | null
  /** The farm's clock: when each lead came is told on it. */
  timeZone: string
}

/**
 * Carries one mail to the owner: a lead mail for one lead, a digest for more. A refusal of the
 * owner's own address is the server's state too (their address is set up wrong or full): every
 * mail waits for it, never failed for good, since the owner has nowhere else to be told.
 */
export function ownerMailCarrier(transport: SmtpTransport) {
  // A lead's mail has its own Message-ID, kept with it: the visitor's answer to the owner's own
  // reply from their mail program names it in its References, and so finds its lead.
  const send = (settings: OwnerMailSettings, mail: OwnerMail, key: string | null) =>
    transport.send(settings.smtpUrl, {
      ...(key ? { messageId: `<${key}@${settings.from.slice(settings.from.lastIndexOf('@') + 1)}>` } : {}),
      from: { name: settings.fromName, address: settings.from },
      to: settings.to,
      replyTo: mail.replyTo,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      // Sent by the site, not a person: no out-of-office answers it (RFC 3834).
      headers: { 'Auto-Submitted': 'auto-generated' },
    })

  return async ({ rows, item }: Batch<Lead[]>, settings: OwnerMailSettings): Promise<Verdict> => {
    const single = rows.length === 1
    try {
      await send(
        settings,
        single ? leadMail(item[0]!, settings) : digestMail(item, settings).mail,
        single ? rows[0]!.receiptKey : null,
      )
    } catch (error) {
      const why = serverWords(error)
      const verdict = smtpVerdict(error)
      if (verdict === 'message-refused') return { refusedMessage: why }
      if (verdict === 'recipient-later') return { later: why }
      return { receiverDown: why }
    }
    return { sent: true, sentIn: single ? `lead-${item[0]!.id}` : `digest-${rows[0]!.id}` }
  }
}
