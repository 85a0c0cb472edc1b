import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { submissions, submissionTags } from '#app/data/schema'
import { withThreads } from '#app/replies/threads.server'
import { leadView } from '#app/leads/lead-view.server'
import type { Submission, TagCount } from '#app/leads/lead'
import { searchMatch, type InboxPage, type InboxView } from './inbox-query'

// Enough for a page of any view a person would search; a search's cost stays bounded at any size.
const mostSearchedPerPage = 2_000

function tagged(kind: TagCount['kind'], value: string | undefined) {
  if (value === undefined) return undefined
  return sql`${submissions.id} IN (SELECT ${submissionTags.submissionId} FROM ${submissionTags} WHERE ${submissionTags.kind} = ${kind} AND ${submissionTags.value} = ${value})`
}

/** The inbox's views a page at a time, searched or not, newest first. */
export function createViewPages({ db }: { db: FarmDatabase }) {
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

  return {
    list,

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
  }
}
