import { inArray } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { replies, submissions, type ReplyRow, type SubmissionRow } from '#app/data/schema'
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

/** What the owner is told of an answer past what the site reads, whose stored text is its subject. */
const tooLargeWords = (subject: string) =>
  subject
    ? `(A mail too large to read here, under the subject “${subject}”: the whole mail is in the farm’s mailbox.)`
    : '(A mail too large to read here: the whole mail is in the farm’s mailbox.)'

/**
 * The leads (in their one view) and the visitors' answers a round of owed rows tells of, each read
 * once by id: what the owner's mail, the webhook and the pushes build their messages from.
 */
export function leadsAndAnswers(db: Pick<FarmDatabase, 'select'>, leadIds: number[], answerIds: number[]) {
  const leads = new Map<number, Submission>(
    db
      .select()
      .from(submissions)
      .where(inArray(submissions.id, leadIds))
      .all()
      .map((lead) => [lead.id, leadView(lead)]),
  )
  const answers = new Map<number, ReplyRow>(
    db
      .select()
      .from(replies)
      .where(inArray(replies.id, answerIds))
      .all()
      .map((answer) => [answer.id, answer.tooLarge ? { ...answer, text: tooLargeWords(answer.text) } : answer]),
  )
  return {
    leadOf: (id: number | null) => (id === null ? undefined : leads.get(id)),
    answerOf: (id: number | null) => (id === null ? undefined : answers.get(id)),
  }
}
