/** What the site owes someone, by kind; see the `deliveries` table. */
export const deliveryKinds = ['owner-mail', 'visitor-mail', 'update-mail', 'webhook-post', 'push'] as const
export type DeliveryKind = (typeof deliveryKinds)[number]

/**
 * Where an owed item is, in one vocabulary for every kind: `queued` (not tried yet), `retrying`
 * (tried, and tried again at `nextAttemptAt`, with why), `sent`, `failed` (the receiver refused it,
 * with why), `gave-up` (a day of trying without a break), `skipped` (no longer owed: the
 * subscriber left before their turn). What is on its way is `sending` only in the engine's memory:
 * see docs/decisions/024-one-delivery-engine.md.
 */
export const deliveryStates = ['queued', 'retrying', 'sent', 'failed', 'gave-up', 'skipped'] as const
export type DeliveryState = (typeof deliveryStates)[number]
