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

export const replyKinds = ['acknowledgement', 'reply'] as const
export type ReplyKind = (typeof replyKinds)[number]

/** Where a mail to a visitor is, in the words the card shows. */
export type DeliveryState = 'queued' | 'sent' | 'failed' | 'retrying'

/** A mail from the farm to the visitor (the owner's reply or the acknowledgement) as pages and the API see it. */
export interface Reply {
  id: number
  kind: ReplyKind
  text: string
  /** Whether `text` is cut (on a card's copy); the history API has every word. */
  cut: boolean
  createdAt: string
  state: DeliveryState
  sentAt: string | null
  /** When it is tried again, while retrying. */
  retryAt: string | null
  /** The mail server's own words, when it failed or is retrying. */
  failure: string | null
  /** A failed mail the owner set aside. */
  dismissed: boolean
}

/** Why a reply's text cannot be sent, or null when it can. */
export function replyTextError(text: string): string | null {
  if (text.trim() === '') return 'Write a reply before sending it.'
  const length = [...text].length
  if (length > replyLimits.text) {
    return `A reply can be at most ${replyLimits.text.toLocaleString('en-GB')} characters; this one has ${length.toLocaleString('en-GB')}.`
  }
  return null
}

/** What a card says about one mail's delivery, e.g. "Retrying at 14:05" (times in the reader's zone). */
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
