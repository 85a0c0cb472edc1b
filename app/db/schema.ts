import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { Analysis } from '../submissions/analysis/analysis'

// `id` is an INTEGER PRIMARY KEY, so it is SQLite's rowid: the table's own
// B-tree is ordered by it and newest-first reads walk it backwards with no
// extra index or sort (see docs/decisions/002-submission-storage.md).
export const submissions = sqliteTable('submissions', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  aiResponse: text('ai_response'),
  analysis: text('analysis', { mode: 'json' }).$type<Analysis>(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
})

export type SubmissionRow = typeof submissions.$inferSelect
