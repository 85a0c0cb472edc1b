import { setImmediate } from 'node:timers/promises'
import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { createWrites, type Writes } from '#app/data/writes.server'
import { leadHistory, submissions, submissionTags, tagCounts } from '#app/data/schema'
import type { SubmissionEvents } from '#app/live/events.server'
import { withThread, withThreads } from '#app/replies/threads.server'
import { leadView } from '#app/leads/lead-view.server'
import type { Submission, TagCount } from '#app/leads/lead'
import { searchMatch, type InboxPage, type InboxView } from './inbox-query'
import type { SubmissionChange } from './submission-change'

const removalBatch = 500

// Enough for a page of any view a person would search; a search's cost stays bounded at any size.
const mostSearchedPerPage = 2_000

function tagged(kind: TagCount['kind'], value: string | undefined) {
  if (value === undefined) return undefined
  return sql`${submissions.id} IN (SELECT ${submissionTags.submissionId} FROM ${submissionTags} WHERE ${submissionTags.kind} = ${kind} AND ${submissionTags.value} = ${value})`
}

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
  // Readings are stamped in the order this one thread makes them, ahead of any earlier process's.
  let lastReading = 0
  const readingAt = () => (lastReading = Math.max(lastReading + 1, now() * 1000))
  const stamped = (rows: Array<Omit<TagCount, 'at'>>): TagCount[] => {
    const at = readingAt()
    return rows.map((row) => ({ ...row, at }))
  }

  function readCount(kind: TagCount['kind'], value: string): TagCount {
    const count =
      db
        .select({ count: tagCounts.count })
        .from(tagCounts)
        .where(and(eq(tagCounts.kind, kind), eq(tagCounts.value, value)))
        .get()?.count ?? 0
    return { kind, value, count, at: readingAt() }
  }

  /**
   * One page of a view, newest first: keyset on the id (never OFFSET), so any page costs
   * the same however deep it is. `next` is where the next page starts (its `before`), or null
   * when nothing older matches the view.
   */
  function pageOf(page: InboxPage): { submissions: Submission[]; next: number | null } {
    const match = page.q ? searchMatch(page.q) : null
    const conditions = and(
      page.spam ? isNotNull(submissions.spamReasons) : isNull(submissions.spamReasons),
      page.after === undefined ? undefined : gt(submissions.id, page.after),
      page.status === undefined ? undefined : eq(submissions.status, page.status),
      tagged('intent', page.intent),
      tagged('product', page.product),
      tagged('urgency', page.urgency),
    )
    if (match !== null) return searched(match, conditions, page)
    const rows = db
      .select()
      .from(submissions)
      .where(and(conditions, page.before === undefined ? undefined : lt(submissions.id, page.before)))
      .orderBy(desc(submissions.id))
      .limit(page.limit + 1)
      .all()
    const shown = rows.slice(0, page.limit)
    return { submissions: shown.map(leadView), next: rows.length > page.limit ? shown.at(-1)!.id : null }
  }

  /** A page of a view as the owner reads it: each card with the mails sent about it. */
  function list(page: InboxPage): { submissions: Submission[]; next: number | null } {
    const read = pageOf(page)
    return { submissions: withThreads(db, read.submissions), next: read.next }
  }

  /**
   * A search walks the FTS index itself newest first and stops at the page's end, so a word
   * in every other message costs what a rare one does. With filters that few of the matches
   * pass, it looks at no more than `mostSearchedPerPage` of them: the page may come back short
   * (even empty) with `next` where the walk stopped, so no page walks the whole index.
   */
  function searched(match: string, conditions: SQL | undefined, page: InboxPage) {
    const window = sql`SELECT rowid FROM submissions_search WHERE submissions_search MATCH ${match} ${page.before === undefined ? sql`` : sql`AND rowid < ${page.before}`} ORDER BY rowid DESC LIMIT ${mostSearchedPerPage}`
    const ids = db
      .all<{ id: number }>(
        sql`SELECT ${submissions.id} AS id FROM (${window}) AS candidate JOIN ${submissions} ON ${submissions.id} = candidate.rowid WHERE ${conditions ?? sql`1`} ORDER BY candidate.rowid DESC LIMIT ${page.limit + 1}`,
      )
      .map((row) => row.id)
    let next: number | null = null
    if (ids.length > page.limit) next = ids[page.limit - 1]!
    else {
      const walked = db.get<{ seen: number; last: number | null }>(
        sql`SELECT count(*) AS seen, min(rowid) AS last FROM (${window})`,
      )
      if (walked && walked.seen === mostSearchedPerPage) next = walked.last
    }
    const shown = ids.slice(0, page.limit)
    if (shown.length === 0) return { submissions: [], next }
    const rows = db.select().from(submissions).where(inArray(submissions.id, shown)).orderBy(desc(submissions.id)).all()
    return { submissions: rows.map(leadView), next }
  }

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
    list,

    /** A reading stamp on the same clock as the counts': a page read before it is older than any change stamped after. */
    readAt: readingAt,

    /**
     * The whole view, newest first, in chunks: each chunk is its own keyset query, so nothing
     * holds the database between chunks however slowly they are read. A search's chunk may be
     * empty (its walk found nothing in the view): it is still one chunk, so no read walks more.
     * The submissions come without their mails (the export has no column for them).
     */
    *everyPage(view: InboxView, chunk = 500): Generator<Submission[]> {
      let before: number | undefined
      for (;;) {
        const page = pageOf({ ...view, before, limit: chunk })
        yield page.submissions
        if (page.next === null) return
        before = page.next
      }
    },

    /** How many submissions in the inbox the owner has not dealt with yet. */
    countNew: () => readCount('status', 'new'),

    /** How many mails to visitors failed and wait for the owner to try again or dismiss. */
    countFailedReplies: () => readCount('delivery', 'failed'),

    /** How many kept submissions carry each intent, product and urgency; read from counts the triggers keep. */
    tagCounts(): TagCount[] {
      return stamped(db.select().from(tagCounts).where(gt(tagCounts.count, 0)).orderBy(desc(tagCounts.count)).all())
    },

    /** The counts a change to this submission can move: its own tags', the statuses' and the failed mails'. */
    countsTouchedBy(id: number): TagCount[] {
      return stamped(
        db
          .select()
          .from(tagCounts)
          .where(
            sql`${tagCounts.kind} IN ('status', 'delivery') OR (${tagCounts.kind}, ${tagCounts.value}) IN (SELECT ${submissionTags.kind}, ${submissionTags.value} FROM ${submissionTags} WHERE ${submissionTags.submissionId} = ${id})`,
          )
          .all(),
      )
    },

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

    /** Every count, those gone to zero too: what a removal may have moved. */
    everyCount: (): TagCount[] => stamped(db.select().from(tagCounts).all()),

    /** Deletes one submission with everything about it (its mails, pushes, tags); every tab drops its card. */
    async remove(id: number): Promise<boolean> {
      return (await removeWhere(eq(submissions.id, id))) > 0
    },

    /** Empties the spam folder; returns how many were deleted. */
    emptySpam: () => removeWhere(isNotNull(submissions.spamReasons)),

    /** Deletes spam stored before `before`; spam is kept for a while so the owner can rescue a real message. */
    purgeSpam: (before: Date) =>
      removeWhere(and(isNotNull(submissions.spamReasons), lt(submissions.createdAt, before))!),

    /** Deletes handled submissions (not spam) stored before `before` (HANDLED_RETENTION_DAYS). */
    purgeHandled: (before: Date) =>
      removeWhere(
        // Spelt as the partial index submissions_handled_by_age is, so SQLite walks it alone.
        and(
          sql`${submissions.status} = 'handled' AND ${submissions.spamReasons} IS NULL`,
          lt(submissions.createdAt, before),
        )!,
      ),
  }
}

export type Inbox = ReturnType<typeof createInbox>
