import { sql } from 'drizzle-orm'
import type { FarmDatabase } from '../db/database.server'
import { outbox, submissions, type SubmissionRow } from '../db/schema'

export type NewSubmission = Required<Omit<typeof submissions.$inferInsert, 'id' | 'status'>>

/** Why a row was not stored, in words safe to log: never the values it carried. */
export interface StoreFailure {
  message: string
  code?: string
}

export type Stored = { ok: true; row: SubmissionRow } | { ok: false; failure: StoreFailure }

/** Stores a batch and says, for each submission in turn, whether it is stored. */
export type WriteSubmissions = (batch: NewSubmission[]) => Promise<Stored[]>

function failureOf(error: unknown): StoreFailure {
  // Drizzle's error wraps SQLite's and lists the bound values (names, emails) in its message.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  const message = cause instanceof Error ? cause.message : String(cause)
  const code = (cause as { code?: unknown } | null)?.code
  return typeof code === 'string' ? { message, code } : { message }
}

/**
 * Stores batches with one connection: a batch is one transaction (one fsync, one search-index
 * flush). A batch that fails is tried row by row, so one that cannot be stored does not take
 * the others with it. With `mailsOwner`, each kept submission gets its outbox row in the
 * same transaction.
 */
export function createSubmissionWriter(db: FarmDatabase, { mailsOwner = false } = {}) {
  const placeholder = (name: keyof NewSubmission) => sql.placeholder(name)
  // Prepared once: building and preparing the statement cost more than running it. A JSON
  // column would encode a null as the text 'null', so those two take their text (or NULL)
  // from insert().
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

  return (batch: NewSubmission[]): Stored[] => {
    try {
      return db.transaction(() => batch.map(insert)).map((row) => ({ ok: true, row }))
    } catch {
      return batch.map((values) => {
        try {
          return { ok: true, row: db.transaction(() => insert(values)) }
        } catch (error) {
          return { ok: false, failure: failureOf(error) }
        }
      })
    }
  }
}

/** Writes with the caller's own connection, on its own thread. */
export function writeInProcess(db: FarmDatabase): WriteSubmissions {
  const write = createSubmissionWriter(db)
  return async (batch) => write(batch)
}
