import { and, inArray, sql } from 'drizzle-orm'
import type { OpenDatabase } from '#app/data/database.server'
import { replies, subscribers, submissions } from '#app/data/schema'
import { spellingsOf } from '#app/leads/address.server'
import { asSqliteLowers, personMailbox } from './erasures.server'

/**
 * A person's submissions: by their address, whatever its case (the index on lower(email)), and
 * whichever way its domain was spelt when kept (a row kept before the one form, in IDNA's ASCII).
 */
export const sentBy = (address: string) =>
  inArray(sql`lower(${submissions.email})`, spellingsOf(address.trim()).map(asSqliteLowers))

/** A person's subscription: by the mailbox their address reaches (the unique index on address_key). */
export const subscribedAs = (address: string) =>
  // Also under the key a row got before a domain had one form, if another row held the new one.
  inArray(subscribers.addressKey, spellingsOf(personMailbox(address)))

/** What came back from their mailbox (bounces, complaints), the farm's stop, and their answers on others' leads. */
export const mailboxOf = (address: string) => spellingsOf(personMailbox(address))
export const theirAnswers = (address: string) =>
  and(inArray(replies.kind, ['answer', 'automatic-answer']), inArray(replies.addressKey, mailboxOf(address)))

/**
 * At start: subscriptions kept before a domain had one form (IDNA's ASCII, drizzle/0017's
 * release) are keyed by it, so caps, asks and forgetting find them by either spelling. Only
 * keys with letters outside ASCII can differ; one whose new key another row holds is left.
 */
export function keyMailboxesInOneForm(sqlite: OpenDatabase['sqlite']) {
  const old = sqlite.prepare("SELECT id, email FROM subscribers WHERE address_key GLOB '*[^ -~]*'").all() as Array<{
    id: number
    email: string
  }>
  const rekey = sqlite.prepare('UPDATE OR IGNORE subscribers SET address_key = ? WHERE id = ?')
  sqlite.transaction(() => {
    for (const row of old) rekey.run(personMailbox(row.email), row.id)
  })()
}
