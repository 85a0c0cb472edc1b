import { eq, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { mailStops } from '#app/data/mail-stops.server'
import { subscribers } from '#app/data/schema'

/** A subscriber by their mailbox or id, and whether mail to a mailbox is stopped (bounced, or reported as spam). */
export function subscriberLookups(db: FarmDatabase) {
  return {
    stopped: mailStops(db),
    byAddress: db
      .select()
      .from(subscribers)
      .where(eq(subscribers.addressKey, sql.placeholder('addressKey')))
      .prepare(),
    byId: db
      .select()
      .from(subscribers)
      .where(eq(subscribers.id, sql.placeholder('id')))
      .prepare(),
  }
}

export type SubscriberLookups = ReturnType<typeof subscriberLookups>
