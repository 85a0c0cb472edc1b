import { desc, gt } from 'drizzle-orm'
import type { FarmDatabase } from '../db/database.server'
import { submissions, type SubmissionRow } from '../db/schema'
import type { Analyse } from './analysis/analyser.server'
import { parseContactForm, type ContactFormErrors } from './contact-form'
import type { SubmissionEvents } from './events.server'
import type { Submission } from './submission'

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
  }
}

export function createSubmissionsService({ db, events, analyse, now = () => new Date() }: Dependencies) {
  return {
    /** Validate, analyse, store, and only once stored, tell the watchers. */
    async submit(input: unknown): Promise<SubmitResult> {
      const form = parseContactForm(input)
      if (!form.success) return { ok: false, errors: form.errors }
      const { analysis, aiResponse } = await analyse(form.data)
      const row = db
        .insert(submissions)
        .values({ ...form.data, aiResponse, analysis, createdAt: now() })
        .returning()
        .get()
      const submission = toSubmission(row)
      events.publish(submission)
      return { ok: true, submission }
    },

    /** Newest first; with `after`, only those stored after that id. */
    list({ after }: { after?: number } = {}): Submission[] {
      return db
        .select()
        .from(submissions)
        .where(after === undefined ? undefined : gt(submissions.id, after))
        .orderBy(desc(submissions.id))
        .all()
        .map(toSubmission)
    },
  }
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>
