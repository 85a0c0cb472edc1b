/** What the owner may send and keep: bounded, so a card and its live messages stay small. */
export const replyLimits = {
  /** Characters in one reply or saved reply's text. */
  text: 20_000,
  /** Mails in one conversation. */
  perLead: 200,
  /** The latest mails a card carries; the history API has them all. */
  onCard: 20,
  /** Characters of each mail a card carries. */
  textOnCard: 2_000,
} as const

/** `confirmation` asks a visitor to confirm they want the farm's updates (UPDATES). */
export const replyKinds = ['acknowledgement', 'reply', 'confirmation'] as const
export type ReplyKind = (typeof replyKinds)[number]

/** What each kind of mail is called on a card: first as a heading, then within a sentence. */
export const replyKindWords: Record<ReplyKind, { heading: string; inSentence: string }> = {
  reply: { heading: 'Your reply', inSentence: 'your reply' },
  acknowledgement: { heading: 'Automatic acknowledgement', inSentence: 'the acknowledgement' },
  confirmation: { heading: 'Asked to confirm updates', inSentence: 'the question about updates' },
}

/** Where a mail to a visitor is, in the words the card shows. */
export type ReplyState = 'queued' | 'sent' | 'failed' | 'retrying'

/** A mail from the farm to the visitor (the owner's reply or the acknowledgement) as pages and the API see it. */
export interface Reply {
  id: number
  kind: ReplyKind
  text: string
  /** Whether `text` is cut (on a card's copy); the history API has every word. */
  cut: boolean
  createdAt: string
  state: ReplyState
  sentAt: string | null
  /** When it is tried again, while retrying. */
  retryAt: string | null
  /** The mail server's own words, when it failed or is retrying. */
  failure: string | null
  /** A failed mail the owner set aside. */
  dismissed: boolean
}

/** A form sends each line break as CRLF: counted, kept and mailed as one character. */
export const oneLineBreak = (text: string) => text.replace(/\r\n?/g, '\n')

// Line breaks and tabs are writing; other control characters and half an emoji are not.
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
// Spaces and invisible format characters (a zero-width space) alone are no words.
const nothingVisible = /^[\s\p{Cf}]*$/u

/**
 * Why a text the owner wrote for visitors cannot be kept, or null when it can: it has words,
 * no control characters, and at most `most` characters (an emoji is one). `what` names it in the
 * answer, e.g. "a reply".
 */
export function writingError(text: string, what: string, most: number): string | null {
  if (nothingVisible.test(text)) return `Write ${what} first.`
  if (controlCharacters.test(text) || loneSurrogate.test(text)) {
    return `${capitalised(what)} can hold letters, numbers, signs and line breaks, not control characters.`
  }
  const length = [...text].length
  if (length > most) {
    return `${capitalised(what)} can be at most ${most.toLocaleString('en-GB')} characters; this one has ${length.toLocaleString('en-GB')}.`
  }
  return null
}

const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`

/** Why a reply's text cannot be sent, or null when it can. */
export const replyTextError = (text: string) => writingError(text, 'a reply', replyLimits.text)

/** What a card says about one mail's delivery, e.g. "Retrying at 22 Nov 2026, 14:05 UTC", with `time` saying each time. */
export function deliveryWords(reply: Reply, time: (iso: string) => string): string {
  switch (reply.state) {
    case 'queued':
      return 'Queued'
    case 'sent':
      return reply.sentAt ? `Sent ${time(reply.sentAt)}` : 'Sent'
    case 'retrying':
      return reply.retryAt ? `Retrying at ${time(reply.retryAt)}` : 'Retrying'
    case 'failed':
      return reply.dismissed ? 'Failed (dismissed)' : 'Failed'
  }
}
