import { sql } from 'drizzle-orm'
import type { Analyse } from '#app/analysis/analyser.server'
import type { Analysis } from '#app/analysis/analysis'
import type { FarmDatabase } from '#app/data/database.server'
import { createWrites, type Writes } from '#app/data/writes.server'
import { outbox, submissions, type SubmissionRow } from '#app/data/schema'
import type { SubmissionEvents } from '#app/live/events.server'
import type { ContactFormErrors } from './contact-fields'
import { parseContactForm } from './contact-validation'
import { createGroupCommit } from './group-commit.server'
import type { SpamReason, Submission } from './submission'

type NewSubmission = Required<Omit<typeof submissions.$inferInsert, 'id' | 'status'>>

export type SubmitResult = { ok: true; submission: Submission } | { ok: false; errors: ContactFormErrors }

interface Dependencies {
  db: FarmDatabase
  events: SubmissionEvents
  analyse: Analyse
  /** Waits out another process's lock and counts what still fails. */
  writes?: Writes
  now?: () => Date
  /** When the owner is mailed about leads: each kept submission gets its outbox row in its own transaction. */
  mailsOwner?: boolean
}

/** Why a submission is set aside: the traps it walked into and what the analysis found; null to keep it. */
function spamReasons(trappedBy: SpamReason[], analysis: Analysis | null): SpamReason[] | null {
  const reasons = new Set<SpamReason>([...trappedBy, ...(analysis?.spam.isSpam ? analysis.spam.reasons : [])])
  return reasons.size > 0 ? [...reasons] : null
}

/** A stored row as the API, the pages and the live link see it. */
export function toSubmission(row: SubmissionRow): Submission {
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

/** Stores what visitors send: validated, analysed, committed with what it is owed, then told to the watchers. */
export function createSubmissionsService({
  db,
  events,
  analyse,
  writes = createWrites(),
  now = () => new Date(),
  mailsOwner = false,
}: Dependencies) {
  const placeholder = (name: keyof NewSubmission) => sql.placeholder(name)
  // Prepared once: building and preparing the statement cost more than running it. A JSON
  // column would encode a null as the text 'null', so those two take their text (or NULL)
  // from insert.
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
  const commits = createGroupCommit({
    writeAll: (batch: NewSubmission[]) => db.transaction(() => batch.map(insert)),
    whenFree: writes.whenFree,
    failed: writes.failed,
  })

  return {
    /**
     * Validate, analyse, store, and only once stored, tell the watchers. A valid submission
     * that walked into a spam trap, or that the analysis reads as spam, is stored too, set
     * aside with its reasons, and not broadcast.
     */
    async submit(input: unknown, trappedBy: SpamReason[] = []): Promise<SubmitResult> {
      const form = parseContactForm(input)
      if (!form.success) return { ok: false, errors: form.errors }
      const ready = commits.preparing()
      const { analysis, aiResponse } = await analyse(form.data).finally(ready)
      const row = await commits.write({
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
  }
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>
