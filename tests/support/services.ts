import { join } from 'node:path'
import type { Analysis } from '#app/analysis/analysis'
import { openDatabase } from '#app/data/database.server'
import { createInbox } from '#app/inbox/inbox.server'
import { SubmissionEvents, type SubmissionEvent } from '#app/live/events.server'
import { createSubmissionsService } from '#app/submissions/service.server'
import { tempDatabasePath } from './server'

const migrationsFolder = join(import.meta.dirname, '../../drizzle')

/**
 * The services over a fresh SQLite file, as the server builds them, with every message read
 * as `reading` and the time from `now`; `published` collects what they tell the watchers.
 */
export function servicesOverFreshDatabase(reading: Analysis | null, now: () => Date) {
  const database = openDatabase(tempDatabasePath(), migrationsFolder)
  const events = new SubmissionEvents()
  const published: SubmissionEvent[] = []
  events.subscribe((event) => published.push(event))
  const service = createSubmissionsService({
    db: database.db,
    events,
    analyse: async ({ message }) => ({ analysis: reading, aiResponse: reading ? `Read: ${message}` : null }),
    now,
  })
  return { database, events, published, service, inbox: createInbox({ db: database.db, events }) }
}
