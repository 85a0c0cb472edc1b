import type { SubmissionRow } from '#app/data/schema'
import type { Submission } from './lead'

/**
 * The one view of a lead: a stored row as the API, the pages, the live link, the owner's mail, the
 * push, the webhook, the CSV and a person's export see it; each shows a part of it.
 */
export function leadView(row: SubmissionRow): Submission {
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
    history: [],
    // Its subject is read with the card's thread (withThreads), where a page shows it.
    answersUpdate: null,
  }
}
