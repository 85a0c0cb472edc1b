import type { SubmissionRow } from '#app/data/schema'
import type { Submission } from './submission'

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
    awaitingAnalysis: row.reanalyseAt !== null,
    replies: [],
    replyCount: 0,
  }
}
