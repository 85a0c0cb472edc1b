import type { Submission, TagCount } from '#app/leads/lead'
import type { Order } from '#app/leads/order'

/**
 * Every message the live link sends, for the server that writes it and the page that reads
 * it. Each carries the counts the change moved (its tags' and the statuses'), so a page
 * shows the new numbers without asking the server again.
 */
export type LiveMessage =
  | { type: 'NEW_SUBMISSION'; data: Submission; counts: TagCount[] }
  | { type: 'SUBMISSION_UPDATED'; data: Submission; counts: TagCount[] }
  /** Deleted by the owner or a retention, or gone with a forgotten person: every tab drops their cards. */
  | { type: 'SUBMISSIONS_REMOVED'; ids: number[]; counts: TagCount[] }
  /** The owner named the farm anew in the settings: every open page shows the new name. */
  | { type: 'FARM_RENAMED'; name: string; counts: TagCount[] }
  /** An order was confirmed, cancelled, collected or not: the pick-ups page and the lead's card show it as it is now. */
  | { type: 'ORDER_CHANGED'; order: Order; counts: TagCount[] }

const liveMessageTypes: ReadonlySet<string> = new Set<LiveMessage['type']>([
  'NEW_SUBMISSION',
  'SUBMISSION_UPDATED',
  'SUBMISSIONS_REMOVED',
  'FARM_RENAMED',
  'ORDER_CHANGED',
])

/** Whether a parsed live message is one this page knows; others are only logged. */
export function isLiveMessage(value: unknown): value is LiveMessage {
  if (typeof value !== 'object' || value === null || !('type' in value) || typeof value.type !== 'string') return false
  if (!liveMessageTypes.has(value.type) || !('counts' in value) || !Array.isArray(value.counts)) return false
  if (value.type === 'FARM_RENAMED') return 'name' in value && typeof value.name === 'string'
  if (value.type === 'SUBMISSIONS_REMOVED') {
    return 'ids' in value && Array.isArray(value.ids) && value.ids.every((id) => typeof id === 'number')
  }
  if (value.type === 'ORDER_CHANGED') {
    return 'order' in value && typeof value.order === 'object' && value.order !== null && 'id' in value.order
  }
  if (!('data' in value)) return false
  const { data } = value
  return typeof data === 'object' && data !== null && 'id' in data && typeof data.id === 'number'
}
