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
  const counts = createInboxCounts({ db, now })
  // A page read before this stamp may show something older: its live link opened too late to hear it.
  let changedAt = counts.readAt()
  events.subscribe(() => {
    changedAt = counts.readAt()
  })
  return {
    ...createViewPages({ db }),
    ...counts,
    ...createInboxChanges({ db, events, writes }),
    /** The stamp of the last change told over the live link (or of this start), on the counts' clock. */
    changedAt: () => changedAt,
  }
}

export type Inbox = ReturnType<typeof createInbox>
