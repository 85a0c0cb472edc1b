import type { FarmDatabase } from '#app/data/database.server'
import { createWrites, type Writes } from '#app/data/writes.server'
import type { SubmissionEvents } from '#app/live/events.server'
import { createInboxChanges } from './inbox-changes.server'
import { createInboxCounts } from './inbox-counts.server'
import { createViewPages } from './view-pages.server'

/** What the owner reads and works: pages of a view, the counts, and the changes made from a card. */
export function createInbox({
  db,
  events,
  writes = createWrites(),
  now = Date.now,
}: {
  db: FarmDatabase
  events: SubmissionEvents
  writes?: Writes
  now?: () => number
}) {
  return {
    ...createViewPages({ db }),
    ...createInboxCounts({ db, now }),
    ...createInboxChanges({ db, events, writes }),
  }
}

export type Inbox = ReturnType<typeof createInbox>
