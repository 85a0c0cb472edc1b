import { placeholderError } from '#app/writing/placeholders'
import type { SubscriberStatus } from '#app/data/enums'
import { oneLineBreak, writingError } from '#app/writing/writing'

/** What one update may hold. */
export const updateLimits = { subject: 200, text: 50_000 } as const

/** The placeholders an update fills per recipient. */
export const updatePlaceholders = ['name', 'farm'] as const

/** Whom an update is for: every subscriber, or those whose submissions the analysis tagged so. */
export interface Audience {
  products: string[]
  intents: string[]
}

/** Where an update's mails are, as the updates page and `GET /api/updates/:id` show them. */
export interface UpdateReport {
  id: number
  subject: string
  createdAt: string
  audience: Audience
  recipients: number
  /** Waiting for their turn (`retrying` of them after a failure). */
  queued: number
  retrying: number
  sent: number
  failed: number
  /** Accepted, then returned: read back from the farm's mailbox. */
  bounced: number
  /** Recipients who reported it as spam (read back from the farm's mailbox). */
  complained: number
  /** Left (or bounced) before their turn came: not mailed. */
  skipped: number
  /** Recipients who unsubscribed since the update went out. */
  unsubscribedSince: number
  /** Why mails failed, in the mail server's words, most frequent first. */
  failures: Array<{ reason: string; count: number }>
  /** Who of the team sent it; null from an open inbox. */
  sentBy: string | null
}

/** A bounce or complaint as the updates page lists it (not its whole text: that opens on its own). */
export interface ReturnedMail {
  id: number
  kind: 'bounce' | 'complaint'
  address: string
  permanent: boolean
  status: string | null
  words: string | null
  receivedAt: string
  /** Whether the farm stopped mailing the address for it (and the owner may undo that). */
  stopped: boolean
}

/** What came back of the update mails of the last 30 days, read from the farm's mailbox. */
export interface ReturnRates {
  /** Update mails the mail server took in the last 30 days. */
  sent: number
  bounced: number
  complaints: number
}

/** Complaints past this share of the mails sent warn the owner; past `stopsAt`, no update is sent. */
export const complaintLimits = { warnsAt: 0.001, stopsAt: 0.003 } as const

export const shareOf = (part: number, whole: number) => (whole === 0 ? 0 : part / whole)

/** Why complaints stop a send, or null: past 0.3 % the mailbox providers' bulk-sender rules start refusing the farm's mail. */
export function complaintsStop(rates: ReturnRates): string | null {
  const share = shareOf(rates.complaints, rates.sent)
  if (share <= complaintLimits.stopsAt) return null
  return `No update can go out: ${rates.complaints} of the ${rates.sent} update mails of the last 30 days were reported as spam (${(share * 100).toFixed(2)} %, over 0.3 %). Gmail and Yahoo refuse mail from senders above 0.3 %. Send to fewer, more interested people once the 30 days have passed.`
}

/** Why an update cannot be sent, or null when it can. */
export function updateError(subject: string, text: string): string | null {
  const subjectProblem = writingError(subject.trim(), 'a subject', updateLimits.subject)
  if (subjectProblem) return subjectProblem
  if (/[\t\r\n\u0085\u2028\u2029]/.test(subject)) return 'A subject is one line, without tabs.'
  return (
    placeholderError(subject, updatePlaceholders) ??
    writingError(oneLineBreak(text), 'the update’s text', updateLimits.text) ??
    placeholderError(text, updatePlaceholders)
  )
}

/** Who gets one mail, and its footer in their language (update-footer.server.ts). */
export interface Recipient {
  name: string
  footer: UpdateFooter
}

/** The footer's words: who sent it and why ('Bramble Hill Farm (https://…) sent you this because …'), and how to leave. */
export interface UpdateFooter {
  language: string
  why: string
  /** The plain text's line, with the link. */
  unsubscribeText: string
  /** The HTML link's words. */
  unsubscribeLink: string
}

export interface UpdateBody {
  text: string
  html: string
}

const escaped = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

// A web address in the owner's text becomes a link; the sentence's last full stop or bracket stays text.
const webAddress = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'’]/g

/**
 * One line of the owner's text, filled: in a web address a placeholder is filled URL-encoded (so
 * a name stays inside it and never makes one); elsewhere as it is, and in HTML escaped.
 */
function filledLine(line: string, values: Record<string, string>, html: boolean): string {
  const fill = (part: string, encode: (value: string) => string) =>
    part.replace(/\{(name|farm)\}/g, (_whole, key: string) => encode(values[key] ?? ''))
  const text = (part: string) => (html ? fill(escaped(part), escaped) : fill(part, (value) => value))
  let filled = ''
  let from = 0
  for (const found of line.matchAll(webAddress)) {
    const address = fill(found[0], encodeURIComponent)
    filled += text(line.slice(from, found.index))
    filled += html ? `<a href="${escaped(address)}" style="color:#166534">${escaped(address)}</a>` : address
    from = found.index + found[0].length
  }
  return filled + text(line.slice(from))
}

const paragraphs = (text: string) =>
  text
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)

/** What `{name}` and `{farm}` become for one recipient. */
export const placeholderValues = (recipient: Recipient, farmName: string) => ({
  // A name is one line of words wherever it lands, the subject included.
  name: recipient.name.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim() || 'friend',
  farm: farmName,
})

/**
 * One recipient's mail, in plain text and in HTML, from the owner's plain text: paragraphs split
 * at blank lines, the owner's web addresses as links, `{name}` and `{farm}` filled, and the footer
 * that says who sent it, why they get it and how to leave. The composer's preview is this very
 * function.
 */
export function updateBody({
  text,
  farmName,
  recipient,
  unsubscribeUrl,
}: {
  text: string
  farmName: string
  recipient: Recipient
  unsubscribeUrl: string
}): UpdateBody {
  const values = placeholderValues(recipient, farmName)
  const { footer } = recipient
  const body = paragraphs(oneLineBreak(text))
  return {
    text: `${body
      .map((paragraph) =>
        paragraph
          .split('\n')
          .map((line) => filledLine(line, values, false))
          .join('\n'),
      )
      .join('\n\n')}\n\n-- \n${footer.why}\n${footer.unsubscribeText}\n`,
    html: [
      `<!doctype html><html lang="${escaped(footer.language)}"><head><meta charset="utf-8"><title>${escaped(farmName)}</title></head>`,
      '<body style="margin:0;padding:24px;background:#fafaf9;font-family:Georgia,serif;color:#1c1917">',
      '<div style="max-width:600px;margin:0 auto;background:#ffffff;padding:24px;border-radius:12px">',
      ...body.map(
        (paragraph) =>
          `<p style="font-size:16px;line-height:1.6;margin:0 0 16px">${paragraph
            .split('\n')
            .map((line) => filledLine(line, values, true))
            .join('<br>')}</p>`,
      ),
      '<hr style="border:none;border-top:1px solid #e7e5e4;margin:24px 0 12px">',
      `<p style="font-family:Arial,sans-serif;font-size:13px;line-height:1.5;color:#57534e;margin:0">${escaped(footer.why)}<br>`,
      `<a href="${escaped(unsubscribeUrl)}" style="color:#57534e">${escaped(footer.unsubscribeLink)}</a></p>`,
      '</div></body></html>',
    ].join(''),
  }
}

/** A subscriber as the owner's page shows them. */
export interface Subscriber {
  id: number
  email: string
  name: string
  status: SubscriberStatus
  consent: string | null
  addedBy: 'visitor' | 'owner'
  /** Whether the owner took them off (else they left themselves, or were never on). */
  removedByOwner: boolean
  since: string
}

/** What a confirm or unsubscribe link found: the subscriber it is for, or why it does not work. */
export type LinkAnswer =
  | {
      ok: true
      email: string
      status: SubscriberStatus
      /** Whether they left by their own link within the day, and may undo it. */
      mayUndo: boolean
      /** The language they were asked in, as their row keeps it (null: English). */
      language: string | null
    }
  | { ok: false; why: 'expired' | 'invalid' }
