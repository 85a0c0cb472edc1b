import { setImmediate } from 'node:timers/promises'
import { and, eq, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import { leadHistory, orders, submissions } from '#app/data/schema'
import type { SubmissionEvents } from '#app/live/events.server'
import { withThread } from '#app/replies/threads.server'
import { leadView } from '#app/leads/lead-view.server'
import type { Submission } from '#app/leads/lead'
import type { SubmissionChange } from './submission-change'

const removalBatch = 500

/** What the owner changes in the inbox: a card's status, and deleting submissions, one or many. */
export function createInboxChanges({
  db,
  events,
  writes,
}: {
  db: FarmDatabase
  events: SubmissionEvents
  writes: Writes
}) {
  /**
   * Deletes what `which` selects, a few hundred at a time, each batch its own short write so
   * the site never waits long for one, and tells every tab which cards went. Returns how many.
   */
  async function removeWhere(which: SQL): Promise<number> {
    let removed = 0
    for (;;) {
      const ids = await writes.whenFree(() =>
        db
          .delete(submissions)
          .where(
            inArray(
              submissions.id,
              db.select({ id: submissions.id }).from(submissions).where(which).limit(removalBatch),
            ),
          )
          .returning({ id: submissions.id })
          .all()
          .map((row) => row.id),
      )
      if (ids.length > 0) events.publish({ type: 'SUBMISSIONS_REMOVED', ids })
      removed += ids.length
      if (ids.length < removalBatch) return removed
      await setImmediate()
    }
  }

  return {
    /** Marks a submission handled or new, or takes it out of the spam folder, and tells every watcher. */
    async update(id: number, change: SubmissionChange, by: number | null): Promise<Submission | null> {
      const row = await writes.whenFree(() =>
        db.transaction((tx) => {
          const changed = tx
            .update(submissions)
            .set({ ...('status' in change ? { status: change.status } : { spamReasons: null }), statusChangedBy: by })
            .where(eq(submissions.id, id))
            .returning()
            .get()
          if (changed) {
            tx.insert(leadHistory)
              .values({
                submissionId: id,
                change: 'status' in change ? change.status : 'not-spam',
                memberId: by,
                at: new Date(),
              })
              .run()
          }
          return changed
        }),
      )
      if (!row) return null
      const submission = withThread(db, leadView(row))
      events.publish({ type: 'SUBMISSION_UPDATED', data: submission })
      return submission
    },

    /** The address a submission came from, or null when there is no such submission. */
    addressOf: (id: number): string | null =>
      db.select({ email: submissions.email }).from(submissions).where(eq(submissions.id, id)).get()?.email ?? null,

    /** Deletes one submission with everything about it (its mails, pushes, tags); every tab drops its card. */
    async remove(id: number): Promise<boolean> {
      return (await removeWhere(eq(submissions.id, id))) > 0
    },

    /** Empties the spam folder; returns how many were deleted. */
    emptySpam: () => removeWhere(isNotNull(submissions.spamReasons)),

    /** Deletes spam stored before `before`; spam is kept for a while so the owner can rescue a real message. */
    purgeSpam: (before: Date) =>
      removeWhere(and(isNotNull(submissions.spamReasons), lt(submissions.createdAt, before))!),

    /**
     * Deletes handled submissions (not spam) stored before `before` (HANDLED_RETENTION_DAYS), but
     * never one whose order is still to be picked up: the order, and the stock it took, go with it.
     */
    purgeHandled: (before: Date) =>
      removeWhere(
        // Spelt as the partial index submissions_handled_by_age is, so SQLite walks it alone.
        and(
          sql`${submissions.status} = 'handled' AND ${submissions.spamReasons} IS NULL`,
          lt(submissions.createdAt, before),
          sql`NOT EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.submissionId} = ${submissions.id} AND ${orders.status} = 'confirmed')`,
        )!,
      ),
  }
}
