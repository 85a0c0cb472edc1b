/** Header bytes read to decide about a message: far more than any real mail's headers. */
export const mostHeaderBytes = 64 * 1024

/** The Message-IDs a header names, in the order written. */
export const messageIds = (value: unknown): string[] => {
  const text = Array.isArray(value) ? value.join(' ') : typeof value === 'string' ? value : ''
  return [...text.matchAll(/<[^<>\s]{1,250}>/g)].map(([id]) => id)
}

/**
 * A message's header fields by lower-case name, the first of each, continuation lines joined.
 * Read from at most `mostHeaderBytes`, never decoded: only ASCII fields are read from them.
 */
export function mailHeaders(head: Buffer): Map<string, string> {
  const text = head.subarray(0, mostHeaderBytes).toString('latin1')
  const end = text.search(/\r?\n\r?\n/)
  const fields = new Map<string, string>()
  let last: string | null = null
  for (const line of (end < 0 ? text : text.slice(0, end)).split(/\r?\n/)) {
    if (/^[ \t]/.test(line)) {
      if (last !== null && fields.get(last) !== undefined) fields.set(last, `${fields.get(last)} ${line.trim()}`)
      continue
    }
    const colon = line.indexOf(':')
    last = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : null
    if (last !== null && !fields.has(last)) fields.set(last, line.slice(colon + 1).trim())
    else last = null
  }
  return fields
}

/** The address of a From field (`Name <a@b>` or `a@b`), lower case; '' when it has none. */
export function addressIn(from: string): string {
  const address = (/<([^<>\s]*)>\s*$/.exec(from)?.[1] ?? from).trim().toLowerCase()
  return /^[^\s@]+@[^\s@]+$/.test(address) ? address : ''
}

/** What the headers alone say about a message: whether it may be a report, and which mails it answers. */
export function whatTheHeadersSay(fields: Map<string, string>) {
  return {
    /** A delivery or feedback report, or a bounce in an older form, from its type or its sender's address. */
    mayBeReport:
      /^multipart\/report\s*;.*\breport-type\s*=/i.test(fields.get('content-type') ?? '') ||
      /^(mailer-daemon|postmaster)@/.test(addressIn(fields.get('from') ?? '')),
    /** The Message-IDs it answers, In-Reply-To first, then References latest first. */
    answers: [
      ...new Set([...messageIds(fields.get('in-reply-to')), ...messageIds(fields.get('references')).reverse()]),
    ],
  }
}

/**
 * An answer past every limit, even its headers' reading, as the raw headers say it: who wrote
 * (the address, no name), what it answers and its subject as written. Kept rather than lost.
 */
export function tooLargeFromHeaders(fields: Map<string, string>) {
  const address = addressIn(fields.get('from') ?? '')
  const sentAt = new Date(fields.get('date') ?? '')
  const submitted = (fields.get('auto-submitted') ?? '').toLowerCase()
  return {
    kind: 'mail' as const,
    automatic: submitted !== '' && !submitted.startsWith('no'),
    from: address ? { name: '', address } : null,
    answers: whatTheHeadersSay(fields).answers,
    messageId: messageIds(fields.get('message-id'))[0] ?? null,
    subject: (fields.get('subject') ?? '').replace(/\s+/g, ' ').trim().slice(0, 200),
    text: '',
    tooLarge: true,
    attachments: [],
    sentAt: Number.isNaN(sentAt.getTime()) ? null : sentAt,
  }
}
