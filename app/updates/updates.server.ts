import { intents as knownIntents } from '#app/analysis/analysis'
import type { FarmDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import { createAudiences } from './audiences.server'
import { createUpdateQueueing } from './queueing-updates.server'
import { createUpdateReports } from './update-reports.server'

/**
 * The owner's updates and offers: each written with one outbox row per recipient in a single
 * transaction (an INSERT … SELECT, so 10,000 recipients take one statement), sent by the update
 * sender at its own pace, and reported on from those rows.
 */
export function createUpdates({
  db,
  writes,
  products,
  queued,
  now = () => new Date(),
}: {
  db: FarmDatabase
  writes: Writes
  /** The products the analysis looks for (FARM_PRODUCTS), the audience's choices. */
  products: () => string[]
  /** Called once an update is queued, so the sender starts at once. */
  queued: () => void
  now?: () => Date
}) {
  const audiences = createAudiences({ db, products })
  const reports = createUpdateReports({ db, now })
  return {
    get choices() {
      return { products: products(), intents: knownIntents }
    },
    ...audiences,
    /** Starts the sender at once: an update was queued beside the composer (a product's news). */
    wakeSender: queued,
    ...reports,
    ...createUpdateQueueing({
      db,
      writes,
      audienceError: audiences.audienceError,
      returnRates: reports.returnRates,
      queued,
      now,
    }),
  }
}

export type Updates = ReturnType<typeof createUpdates>
