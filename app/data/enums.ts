import type { SpamSignal } from '#app/analysis/analysis'

// The words the stored data is made of, shared by every room that reads or writes it.

export const submissionStatuses = ['new', 'handled'] as const
export type SubmissionStatus = (typeof submissionStatuses)[number]

/** What set a submission aside: one of the form's traps, or the analysis. */
export type SpamReason = 'honeypot' | 'filled_too_fast' | SpamSignal

/**
 * A mail of a lead's conversation: the farm's to the visitor (`confirmation` asks them to confirm
 * they want the farm's updates), or one read back from the farm's mailbox: their `answer`, or an
 * `automatic-answer` (an out-of-office) that tells no one.
 */
export const replyKinds = ['acknowledgement', 'reply', 'confirmation', 'answer', 'automatic-answer'] as const
export type ReplyKind = (typeof replyKinds)[number]

/**
 * What a person of the farm’s team may do: an `owner` everything; a `helper` works the inbox
 * (reads, replies, marks, uses the saved replies, is pushed) and nothing of the farm's data or mail.
 */
export const teamRoles = ['owner', 'helper'] as const
export type TeamRole = (typeof teamRoles)[number]

export const subscriberStatuses = ['asked', 'subscribed', 'unsubscribed', 'undeliverable'] as const
export type SubscriberStatus = (typeof subscriberStatuses)[number]

/** What the site owes someone, by kind; see the `deliveries` table. */
export const deliveryKinds = ['owner-mail', 'visitor-mail', 'update-mail', 'webhook-post', 'push', 'invitation-mail'] as const
export type DeliveryKind = (typeof deliveryKinds)[number]

/**
 * Where an owed item is, in one vocabulary for every kind: `queued` (not tried yet), `retrying`
 * (tried, and tried again at `nextAttemptAt`, with why), `sent`, `failed` (the receiver refused it,
 * with why), `gave-up` (a day of trying without a break), `skipped` (no longer owed: the
 * subscriber left before their turn), `bounced` (accepted, then returned: the mail came back
 * read from the farm's mailbox, with the remote server's words). What is on its way is `sending` only in the engine's memory:
 * see docs/decisions/024-one-delivery-engine.md.
 */
export const deliveryStates = ['queued', 'retrying', 'sent', 'failed', 'gave-up', 'skipped', 'bounced'] as const
export type DeliveryState = (typeof deliveryStates)[number]

/** A mail that came back to the farm's mailbox about one it sent: a bounce, or a complaint (an abuse report). */
export const returnedKinds = ['bounce', 'complaint'] as const
export type ReturnedKind = (typeof returnedKinds)[number]

/** What happened to a lead, by whom: its card's history. */
export const leadChanges = ['handled', 'new', 'not-spam'] as const
export type LeadChange = (typeof leadChanges)[number]

/** What the activity log keeps: the data's actions, sign-ins that failed, and the team's changes. */
export const activityKinds = [
  'export',
  'person-export',
  'backup-download',
  'delete',
  'empty-spam',
  'forget',
  'restore',
  'sign-in-failed',
  'person-invited',
  'person-joined',
  'person-removed',
  'role-changed',
  'signed-out-everywhere',
  'password-reset',
  'farm-page',
  'photo-added',
  'photo-changed',
  'photo-removed',
  'week-changed',
] as const
export type ActivityKind = (typeof activityKinds)[number]

/** How a product of this week's list is for sale, in the order the owner picks from. */
export const availabilities = ['available', 'few-left', 'coming-soon', 'sold-out', 'out-of-season'] as const
export type Availability = (typeof availabilities)[number]

/**
 * Where an order the team confirmed is: `confirmed` (to be picked up), `cancelled` (by the visitor
 * before the cut-off, or by the team), `collected` or `not-collected` on its day. A declined order
 * is never stored: no order exists until the team confirms one (issue 49).
 */
export const orderStatuses = ['confirmed', 'cancelled', 'collected', 'not-collected'] as const
export type OrderStatus = (typeof orderStatuses)[number]

/** What is told about an order (the webhook's `order.*`, the order's history). */
export const orderEventTypes = ['order.confirmed', 'order.cancelled', 'order.collected', 'order.not-collected'] as const
export type OrderEventType = (typeof orderEventTypes)[number]
