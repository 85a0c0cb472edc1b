import type { ParsedMail } from 'mailparser'
import { mostAnswerCharacters, mostBytesPerMail } from './limits'
import { messageIds } from './mail-headers'
import { trimQuotedHistory } from './quoted-history'
import { propertyOf, textOf } from '#app/outside'

/** What one mail in the farm's mailbox is, as far as the site is concerned. */
export type ReadBack =
  /** A report that asks nothing of the site: a delay warning, a read receipt, a delivery's success. */
  | { kind: 'notice' }
  | {
      kind: 'bounce'
      /** The Message-IDs it names of the mail it returns (the farm's, if it is one). */
      about: string[]
      /** Each address it reports, with the remote server's words. */
      failures: Array<{ address: string; status: string | null; permanent: boolean; words: string }>
    }
  | {
      kind: 'complaint'
      about: string[]
      /** The address that complained, when the report names it. */
      address: string | null
    }
  | {
      kind: 'mail'
      /** An out-of-office or other answer a program wrote: told to no one. */
      automatic: boolean
      from: { name: string; address: string } | null
      /** The Message-IDs it answers (In-Reply-To, then References, latest first). */
      answers: string[]
      messageId: string | null
      subject: string
      /** The text written, the quoted history below it trimmed; an HTML-only mail as text. */
      text: string
      /** Read from its headers only: its body was past what the site reads (kept so, never read again). */
      tooLarge: boolean
      attachments: Array<{ name: string; bytes: number }>
      sentAt: Date | null
    }

const header = (mail: ParsedMail, name: string): string => {
  const value = mail.headers.get(name)
  if (typeof value === 'string') return value
  if (value && typeof value === 'object' && 'value' in value) return String(value.value)
  return ''
}

/** `Name: value` fields of a delivery-status or feedback report, in groups parted by blank lines (continuations joined). */
function reportGroups(text: string): Array<Map<string, string>> {
  const groups: Array<Map<string, string>> = []
  let group = new Map<string, string>()
  let last = ''
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      if (group.size > 0) groups.push(group)
      group = new Map()
      last = ''
      continue
    }
    if (/^\s/.test(line) && last) {
      group.set(last, `${group.get(last)} ${line.trim()}`)
      continue
    }
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    last = line.slice(0, colon).trim().toLowerCase()
    group.set(last, line.slice(colon + 1).trim())
  }
  if (group.size > 0) groups.push(group)
  return groups
}

/** The part of a `type; value` field after its type: `rfc822; a@b` is `a@b`. */
const typed = (value: string | undefined) => (value ?? '').replace(/^[^;]*;\s*/, '').trim()
const bareAddress = (value: string) => value.replace(/^<|>$/g, '').trim().toLowerCase()
const statusIn = (text: string) => /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(text)?.[1] ?? null
const oneLine = (text: string, most = 1_000) => text.replace(/\s+/g, ' ').trim().slice(0, most)

/** The Message-IDs of the returned mail, from its quoted headers wherever the report puts them. */
function quotedMessageIds(text: string): string[] {
  return [...new Set([...text.matchAll(/^Message-ID:\s*(<[^<>\s]{1,250}>)/gim)].map(([, id]) => id!))]
}

/**
 * The text of each MIME part of a type, read from the mail as it came: mail parsers turn a
 * report's `message/delivery-status` part into body text, where its fields cannot be told apart.
 */
function partsOf(source: string, type: RegExp): string[] {
  const parts: string[] = []
  for (const found of source.matchAll(/^Content-Type:[ \t]*([\w.+-]+\/[\w.+-]+)[^\n]*\n/gim)) {
    if (!type.test(found[1]!)) continue
    const from = source.indexOf('\n\n', found.index)
    if (from < 0) continue
    const end = source.slice(from).search(/\n--[^\n]{1,200}\n/)
    parts.push(source.slice(from + 2, end < 0 ? undefined : from + end))
    if (parts.length >= 5) break
  }
  return parts
}

/** A `multipart/report`'s report-type (`delivery-status`, `feedback-report`), else ''. */
function reportType(mail: ParsedMail): string {
  const type = mail.headers.get('content-type')
  if (
    !type ||
    typeof type !== 'object' ||
    !('value' in type) ||
    String(type.value).toLowerCase() !== 'multipart/report'
  )
    return ''
  return (textOf(propertyOf(type, 'params'), 'report-type') ?? '').toLowerCase()
}

function asBounce(mail: ParsedMail, report: string, body: string): ReadBack | null {
  if (report === 'delivery-status') {
    const status = partsOf(body, /^message\/(global-)?delivery-status$/i).join('\n\n')
    const failures = reportGroups(status)
      .filter((group) => group.has('final-recipient') || group.has('original-recipient'))
      .map((group) => {
        const action = (group.get('action') ?? '').toLowerCase()
        const code = statusIn(group.get('status') ?? '') ?? statusIn(group.get('diagnostic-code') ?? '')
        return {
          address: bareAddress(typed(group.get('final-recipient') ?? group.get('original-recipient'))),
          status: code,
          permanent: action === 'failed' && (code === null || code.startsWith('5')),
          words: oneLine(typed(group.get('diagnostic-code')) || group.get('status') || action),
          action,
        }
      })
      // A delay is a warning, not a failure: the mail is still being tried.
      .filter((failure) => failure.action === 'failed')
      .map(({ action: _action, ...failure }) => failure)
    if (failures.length === 0) return { kind: 'notice' }
    return { kind: 'bounce', about: quotedMessageIds(body), failures }
  }
  // The common forms that are not RFC 3464 (Exim's, older Microsoft's): a bounce by who sent it or
  // what it is called, its failed addresses from X-Failed-Recipients or its text.
  const from = mail.from?.value[0]?.address?.toLowerCase() ?? ''
  const looksReturned =
    /^(mailer-daemon|postmaster)@/.test(from) &&
    /(undeliver|delivery (status notification|failure|has failed)|returned mail|mail delivery failed|failure notice|returned to sender)/i.test(
      mail.subject ?? '',
    )
  if (!looksReturned) return null
  // Only the start is read: a bounce says what failed in its first lines, and the patterns stay linear.
  const text = (mail.text ?? '').slice(0, 64 * 1024)
  const named = header(mail, 'x-failed-recipients')
    .split(',')
    .map((address) => bareAddress(address))
    .filter((address) => address.includes('@'))
  const smtpClass = /\b([45])\d\d\b/.exec(text)?.[1]
  const code = statusIn(text) ?? (smtpClass ? `${smtpClass}.0.0` : null)
  const words = oneLine(/\b[45]\d\d[ -].{0,300}/.exec(text)?.[0] ?? text.slice(0, 300))
  const addresses =
    named.length > 0
      ? named
      : [...new Set([...text.matchAll(/^[ \t]+<?([^\s<>@]+@[^\s<>@]+)>?[ \t]*$/gm)].map(([, a]) => bareAddress(a!)))]
  return {
    kind: 'bounce',
    about: quotedMessageIds(body),
    failures: addresses
      .slice(0, 50)
      .map((address) => ({ address, status: code, permanent: !code || code.startsWith('5'), words })),
  }
}

function asComplaint(report: string, body: string): ReadBack | null {
  if (report !== 'feedback-report') return null
  const fields = reportGroups(partsOf(body, /^message\/feedback-report$/i).join('\n\n'))[0] ?? new Map()
  const original = partsOf(body, /^(message\/rfc822|text\/rfc822-headers)$/i)
  const quotedTo = /^To:\s*(?:[^<\n]*<)?([^\s<>@]+@[^\s<>@]+)>?/im.exec(original.join('\n'))?.[1]
  const address = fields.get('original-rcpt-to') ?? quotedTo ?? null
  return {
    kind: 'complaint',
    about: quotedMessageIds(original.join('\n')),
    address: address ? bareAddress(address) : null,
  }
}

/** RFC 3834 and the common older marks of a mail a program answered with. */
function isAutomatic(mail: ParsedMail): boolean {
  const submitted = header(mail, 'auto-submitted').toLowerCase()
  if (submitted && !submitted.startsWith('no')) return true
  if (
    header(mail, 'x-autoreply') ||
    header(mail, 'x-autorespond') ||
    header(mail, 'x-auto-response-suppress') === 'All'
  ) {
    return true
  }
  if (/^(bulk|auto_reply|list|junk)$/i.test(header(mail, 'precedence').trim())) return true
  return /^\s*(auto(matic)?[ -]?(reply|response|antwort)|out of (the )?office|vacation|away from|abwesenheit|absence|r[ée]ponse automatique)/i.test(
    mail.subject ?? '',
  )
}

/** Children of one element, and nesting, turned into text at most: a list of 200,000 items is cut, not walked. */
const htmlLimits = { maxChildNodes: 2_000, maxDepth: 1_000, maxInputLength: mostBytesPerMail, ellipsis: '…' }

/** An HTML-only mail's words, bounded: never run, never kept as HTML. */
async function htmlAsText(html: string): Promise<string> {
  const { convert } = await import('html-to-text')
  return convert(html, { limits: htmlLimits }).slice(0, 4 * mostAnswerCharacters)
}

/**
 * Reads one mail as it came (at most `mostBytesPerMail`): never run, never kept as HTML. Slow
 * for mail shaped against HTML conversion (nested lists): called in the mail reader's worker.
 */
export async function readBack(source: Buffer, { reportOnly = false } = {}): Promise<ReadBack> {
  // Loaded with the first mail read: about 15 MB that a site without a mailbox never pays.
  const { simpleParser } = await import('mailparser')
  const mail = await simpleParser(source, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    skipTextLinks: true,
    maxHtmlLengthToParse: mostBytesPerMail,
  })
  // The mail as it came, past its own headers (so its own Message-ID is not taken for the returned one's).
  const raw = source.toString('latin1').replace(/\r\n/g, '\n')
  const body = raw.slice(Math.max(0, raw.indexOf('\n\n')))
  const report = reportType(mail)
  const returned = asComplaint(report, body) ?? asBounce(mail, report, body)
  if (returned) return returned
  // Any other report (a read receipt, say) is a program's: it reopens nothing. A mail read only as
  // the report it might have been (it answers none of the farm's mails) is no more than that.
  if (report || reportOnly) return { kind: 'notice' }
  const from = mail.from?.value[0]
  const answers = [...messageIds(mail.inReplyTo), ...messageIds(mail.references).reverse()]
  const written = mail.text || (typeof mail.html === 'string' ? await htmlAsText(mail.html) : '')
  // Cut first, so the trimming reads a bounded text whatever size the mail was.
  const text = trimQuotedHistory(written.slice(0, 2 * mostAnswerCharacters))
  return {
    kind: 'mail',
    automatic: isAutomatic(mail),
    from: from?.address ? { name: oneLine(from.name ?? '', 100), address: from.address.toLowerCase() } : null,
    answers: [...new Set(answers)],
    messageId: messageIds(mail.messageId)[0] ?? null,
    subject: oneLine(mail.subject ?? '', 200),
    text: [...text].slice(0, mostAnswerCharacters).join(''),
    tooLarge: false,
    attachments: mail.attachments.slice(0, 50).map((part) => ({
      name: oneLine(part.filename ?? 'unnamed', 200),
      bytes: part.size ?? part.content.length,
    })),
    sentAt: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
  }
}

/** A mail past a limit (its size, or the time or memory its reading took), from its headers alone. */
export async function readTooLarge(head: Buffer): Promise<ReadBack> {
  const read = await readBack(head)
  return read.kind === 'mail' ? { ...read, text: '', attachments: [], tooLarge: true } : { kind: 'notice' }
}
