import type { ReplyKind } from '#app/data/enums'
import type { Reply } from '#app/leads/lead'
import { writingError } from '#app/writing/writing'
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

/** What each kind of mail is called on a card: first as a heading, then within a sentence. */
export const replyKindWords: Record<ReplyKind, { heading: string; inSentence: string }> = {
  reply: { heading: 'Your reply', inSentence: 'your reply' },
  acknowledgement: { heading: 'Automatic acknowledgement', inSentence: 'the acknowledgement' },
  confirmation: { heading: 'Asked to confirm updates', inSentence: 'the question about updates' },
  answer: { heading: 'They replied', inSentence: 'their answer' },
  'automatic-answer': { heading: 'Automatic answer', inSentence: 'the automatic answer' },
}

/** Why a reply's text cannot be sent, or null when it can. */
export const replyTextError = (text: string) => writingError(text, 'a reply', replyLimits.text)

/** What a card says about one mail's delivery, e.g. "Retrying at 22 Nov 2026, 14:05", with `time` saying each time. */
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
    case 'bounced':
      return reply.dismissed ? 'Bounced (dismissed)' : 'Bounced'
    // Their own mail: its time is the card's already, read back from the farm's mailbox.
    case 'received':
      return 'Received'
  }
}
