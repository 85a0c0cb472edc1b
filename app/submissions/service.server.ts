import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm'
import type { FarmDatabase } from '../db/database.server'
import { outbox, submissions, submissionTags, tagCounts, type SubmissionRow } from '../db/schema'
import type { Analyse } from './analysis/analyser.server'
import type { Analysis } from './analysis/analysis'
import type { ContactFormErrors } from './contact-fields'
import { parseContactForm } from './contact-form'
import { searchMatch, type InboxPage, type InboxView } from './inbox-query'
import type { SubmissionEvents } from './events.server'
import type { SubmissionChange } from './submission-change'
import type { SpamReason, Submission } from './submission'

type NewSubmission = Required<Omit<typeof submissions.$inferInsert, 'id' | 'status'>>

export type SubmitResult = { ok: true; submission: Submission } | { ok: false; errors: ContactFormErrors }

interface Dependencies {
  db: FarmDatabase
  events: SubmissionEvents
  analyse: Analyse
  now?: () => Date
  /** When the owner is mailed about leads: each kept submission gets its outbox row in its own transaction. */
  mailsOwner?: boolean
}

/** Why a submission is set aside: the traps it walked into and what the analysis found; null to keep it. */
function spamReasons(trappedBy: SpamReason[], analysis: Analysis | null): SpamReason[] | null {
  const reasons = new Set<SpamReason>([...trappedBy, ...(analysis?.spam.isSpam ? analysis.spam.reasons : [])])
  return reasons.size > 0 ? [...reasons] : null
}

/**
 * How long an analysed submission may wait for the others still being analysed, to share
 * their commit. Waiting for them as they finish took POSTs from about 1,700 to 2,100 a second
 * on the bench machine; a language model's slow reading holds the others no longer than this.
 */
const gatherAtMostMs = 2

export type TagCount = typeof tagCounts.$inferSelect

function tagged(kind: TagCount['kind'], value: string | undefined) {
  if (value === undefined) return undefined
  return sql`${submissions.id} IN (SELECT ${submissionTags.submissionId} FROM ${submissionTags} WHERE ${submissionTags.kind} = ${kind} AND ${submissionTags.value} = ${value})`
}

function toSubmission(row: SubmissionRow): Submission {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    message: row.message,
    aiResponse: row.aiResponse,
    analysis: row.analysis ?? null,
    createdAt: row.createdAt.toISOString(),
    spam: row.spamReasons ?? null,
    status: row.status,
  }
}

export function createSubmissionsService({
  db,
  events,
  analyse,
  now = () => new Date(),
  mailsOwner = false,
}: Dependencies) {
  /**
   * One page of a view, newest first: keyset on the id (never OFFSET), so any page costs
   * the same however deep it is. `more` says whether older ones match the view too.
   */
  function list(page: InboxPage): { submissions: Submission[]; more: boolean } {
    const match = page.q ? searchMatch(page.q) : null
    const conditions = and(
      page.spam ? isNotNull(submissions.spamReasons) : isNull(submissions.spamReasons),
      page.before === undefined ? undefined : lt(submissions.id, page.before),
      page.after === undefined ? undefined : gt(submissions.id, page.after),
      page.status === undefined ? undefined : eq(submissions.status, page.status),
      tagged('intent', page.intent),
      tagged('product', page.product),
      tagged('urgency', page.urgency),
    )
    const rows =
      match === null
        ? db
            .select()
            .from(submissions)
            .where(conditions)
            .orderBy(desc(submissions.id))
            .limit(page.limit + 1)
            .all()
        : searched(match, conditions, page.limit + 1)
    return { submissions: rows.slice(0, page.limit).map(toSubmission), more: rows.length > page.limit }
  }

  /**
   * A search walks the FTS index itself newest first and stops at the page's end, so a word
   * in every other message costs what a rare one does; the rows are then read by id.
   */
  function searched(match: string, conditions: SQL | undefined, limit: number): SubmissionRow[] {
    const ids = db
      .all<{ id: number }>(
        sql`SELECT ${submissions.id} AS id FROM submissions_search JOIN ${submissions} ON ${submissions.id} = submissions_search.rowid WHERE submissions_search MATCH ${match} AND ${conditions ?? sql`1`} ORDER BY submissions_search.rowid DESC LIMIT ${limit}`,
      )
      .map((row) => row.id)
    if (ids.length === 0) return []
    return db.select().from(submissions).where(inArray(submissions.id, ids)).orderBy(desc(submissions.id)).all()
  }

  const placeholder = (name: keyof NewSubmission) => sql.placeholder(name)
  // Prepared once: building and preparing the statement cost more than running it. A JSON
  // column would encode a null as the text 'null', so those two take their text (or NULL)
  // from insertValues.
  const preparedInsert = db
    .insert(submissions)
    .values({
      name: placeholder('name'),
      email: placeholder('email'),
      message: placeholder('message'),
      aiResponse: placeholder('aiResponse'),
      analysis: sql`${placeholder('analysis')}`,
      createdAt: placeholder('createdAt'),
      spamReasons: sql`${placeholder('spamReasons')}`,
    })
    .returning()
    .prepare()
  const asJson = (value: unknown) => (value === null ? null : JSON.stringify(value))
  const insertMail = db
    .insert(outbox)
    .values({
      submissionId: sql.placeholder('submissionId'),
      nextAttemptAt: sql.placeholder('createdAt'),
      createdAt: sql.placeholder('createdAt'),
    })
    .prepare()
  function insert(values: NewSubmission): SubmissionRow {
    const row = preparedInsert.get({
      ...values,
      analysis: asJson(values.analysis),
      spamReasons: asJson(values.spamReasons),
    })
    // Spam is never mailed.
    if (mailsOwner && row.spamReasons === null) insertMail.run({ submissionId: row.id, createdAt: row.createdAt })
    return row
  }

  // Group commit: analysed submissions wait until no other submission is being analysed (at
  // most gatherAtMostMs), then are stored in one transaction (one fsync, one search-index
  // flush); each is answered only once that transaction has committed. A quiet site's lone
  // submission is stored at once.
  let waiting: Array<{ values: NewSubmission; stored(row: SubmissionRow): void; failed(error: unknown): void }> = []
  let analysing = 0
  let scheduled: 'now' | 'soon' | null = null
  let gathering: NodeJS.Timeout | undefined
  function store(values: NewSubmission): Promise<SubmissionRow> {
    return new Promise((stored, failed) => {
      waiting.push({ values, stored, failed })
      if (analysing === 0 && scheduled !== 'now') {
        clearTimeout(gathering)
        scheduled = 'now'
        setImmediate(storeWaiting)
      } else if (scheduled === null) {
        scheduled = 'soon'
        gathering = setTimeout(storeWaiting, gatherAtMostMs)
      }
    })
  }
  function storeWaiting() {
    scheduled = null
    clearTimeout(gathering)
    const batch = waiting
    waiting = []
    let rows: SubmissionRow[]
    try {
      rows = db.transaction(() => batch.map(({ values }) => insert(values)))
    } catch {
      // One that cannot be stored must not take the others with it: each is tried alone.
      for (const { values, stored, failed } of batch) {
        try {
          stored(db.transaction(() => insert(values)))
        } catch (error) {
          failed(error)
        }
      }
      return
    }
    batch.forEach(({ stored }, i) => stored(rows[i]!))
  }

  return {
    /**
     * Validate, analyse, store, and only once stored, tell the watchers. A valid submission
     * that walked into a spam trap, or that the analysis reads as spam, is stored too, set
     * aside with its reasons, and not broadcast.
     */
    async submit(input: unknown, trappedBy: SpamReason[] = []): Promise<SubmitResult> {
      const form = parseContactForm(input)
      if (!form.success) return { ok: false, errors: form.errors }
      analysing++
      const { analysis, aiResponse } = await analyse(form.data).finally(() => analysing--)
      const row = await store({
        ...form.data,
        aiResponse,
        analysis,
        createdAt: now(),
        spamReasons: spamReasons(trappedBy, analysis),
      })
      const submission = toSubmission(row)
      if (!submission.spam) events.publish({ type: 'NEW_SUBMISSION', data: submission })
      return { ok: true, submission }
    },

    /** Deletes spam stored before `before`; spam is kept for a while so the owner can rescue a real message. */
    purgeSpam(before: Date): number {
      return db
        .delete(submissions)
        .where(and(isNotNull(submissions.spamReasons), lt(submissions.createdAt, before)))
        .run().changes
    },

    /** Marks a submission handled or new, or takes it out of the spam folder, and tells every watcher. */
    update(id: number, change: SubmissionChange): Submission | null {
      const row = db
        .update(submissions)
        .set('status' in change ? { status: change.status } : { spamReasons: null })
        .where(eq(submissions.id, id))
        .returning()
        .get()
      if (!row) return null
      const submission = toSubmission(row)
      events.publish({ type: 'SUBMISSION_UPDATED', data: submission })
      return submission
    },

    list,

    /**
     * The whole view, newest first, in chunks: each chunk is its own keyset query, so nothing
     * holds the database between chunks however slowly they are read.
     */
    *everyPage(view: InboxView, chunk = 500): Generator<Submission[]> {
      let before: number | undefined
      for (;;) {
        const page = list({ ...view, before, limit: chunk })
        if (page.submissions.length > 0) yield page.submissions
        if (!page.more) return
        before = page.submissions.at(-1)!.id
      }
    },

    /** How many submissions in the inbox the owner has not dealt with yet. */
    countNew(): number {
      return (
        db
          .select({ count: tagCounts.count })
          .from(tagCounts)
          .where(and(eq(tagCounts.kind, 'status'), eq(tagCounts.value, 'new')))
          .get()?.count ?? 0
      )
    },

    /** How many kept submissions carry each intent, product and urgency; read from counts the triggers keep. */
    tagCounts(): TagCount[] {
      return db.select().from(tagCounts).where(gt(tagCounts.count, 0)).orderBy(desc(tagCounts.count)).all()
    },
  }
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>
