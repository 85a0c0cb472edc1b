import { and, desc, eq, gt, isNotNull, isNull } from 'drizzle-orm'
import type { FarmDatabase } from '../db/database.server'
import { submissions, type SubmissionRow } from '../db/schema'
import type { Analyse } from './analysis/analyser.server'
import { parseContactForm, type ContactFormErrors } from './contact-form'
import type { SubmissionEvents } from './events.server'
import type { SubmissionChange } from './submission-change'
import type { SpamReason, Submission } from './submission'

export type SubmitResult = { ok: true; submission: Submission } | { ok: false; errors: ContactFormErrors }

interface Dependencies {
  db: FarmDatabase
  events: SubmissionEvents
  analyse: Analyse
  now?: () => Date
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

export function createSubmissionsService({ db, events, analyse, now = () => new Date() }: Dependencies) {
  return {
    /**
     * Validate, analyse, store, and only once stored, tell the watchers. A valid submission
     * that walked into a spam trap is stored too, set aside with its reasons, and not broadcast.
     */
    async submit(input: unknown, trappedBy: SpamReason[] = []): Promise<SubmitResult> {
      const form = parseContactForm(input)
      if (!form.success) return { ok: false, errors: form.errors }
      const { analysis, aiResponse } = await analyse(form.data)
      const row = db
        .insert(submissions)
        .values({
          ...form.data,
          aiResponse,
          analysis,
          createdAt: now(),
          spamReasons: trappedBy.length > 0 ? trappedBy : null,
        })
        .returning()
        .get()
      const submission = toSubmission(row)
      if (!submission.spam) events.publish({ type: 'NEW_SUBMISSION', data: submission })
      return { ok: true, submission }
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

    /** Newest first, the inbox or (`spam`) what was set aside; with `after`, only those stored after that id. */
    list({ after, spam = false }: { after?: number; spam?: boolean } = {}): Submission[] {
      return db
        .select()
        .from(submissions)
        .where(
          and(
            spam ? isNotNull(submissions.spamReasons) : isNull(submissions.spamReasons),
            after === undefined ? undefined : gt(submissions.id, after),
          ),
        )
        .orderBy(desc(submissions.id))
        .all()
        .map(toSubmission)
    },
  }
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>
