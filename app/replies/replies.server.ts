import { createAcknowledgementText } from './acknowledgement-text.server'
import { createReplySending, type ReplySendingNeeds } from './reply-sending.server'
import { createSavedReplies } from './saved-replies.server'

export { savedReplyLimits } from './saved-replies.server'

/**
 * Answering leads: the owner's replies, each stored with its outbox entry in one transaction
 * (and the lead marked handled), failed ones retried or dismissed, the saved replies and the
 * acknowledgement's text. Every change is told to the watchers with the lead's thread.
 */
export function createReplies({
  acknowledging,
  now = () => new Date(),
  ...sending
}: Omit<ReplySendingNeeds, 'now'> & {
  /** Whether visitors get the acknowledgement (VISITOR_ACK, with mail set up). */
  acknowledging: () => boolean
  now?: () => Date
}) {
  const { db, writes } = sending
  return {
    ...createReplySending({ ...sending, now }),
    saved: createSavedReplies({ db, writes, now }),
    acknowledgement: createAcknowledgementText({ db, writes, acknowledging, now }),
  }
}

export type Replies = ReturnType<typeof createReplies>
