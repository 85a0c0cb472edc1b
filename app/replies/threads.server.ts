import { desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { LeadChange } from '#app/data/enums'
import { leadHistory, replies, submissions, team, updates, type DeliveryRow, type ReplyRow } from '#app/data/schema'
import { visitorMailsOf } from '#app/delivery/reads.server'
import type { SubmissionEvents } from '#app/live/events.server'
import { leadView } from '#app/leads/lead-view.server'
import type { Submission } from '#app/leads/lead'
import type { LeadEvent, Reply } from '#app/leads/lead'

/** The latest changes a card shows of who marked or moved it. */
const historyOnCard = 5
import { replyLimits } from './reply'

/** What a card shows of a mail's delivery, read from the delivery engine's record; none for an answer read back. */
type MailDelivery = Pick<DeliveryRow, 'state' | 'nextAttemptAt' | 'sentAt' | 'lastError' | 'dismissedAt'>
type StoredReply = ReplyRow & { delivery: MailDelivery | null; byName: string | null }

/** A mail of a conversation and who of the team wrote it, as one read gives it (joined to `team`). */
const replyWithWriter = { ...getTableColumns(replies), byName: team.name }

/** The mails with their deliveries, read from the delivery engine's record. */
function withDeliveries<Row extends ReplyRow>(
  db: FarmDatabase,
  rows: Row[],
): Array<Row & { delivery: MailDelivery | null }> {
  const delivered = visitorMailsOf(
    db,
    rows.map((row) => row.id),
  )
  return rows.map((row) => ({ ...row, delivery: delivered.get(row.id) ?? null }))
}

/** A stored mail of a conversation as pages and the API see it; `textUpTo` cuts its words for a card. */
export function toReply({ delivery, ...row }: StoredReply, leadAddress: string, textUpTo = Infinity): Reply {
  const words = [...row.text]
  const cut = words.length > textUpTo
  const mail = {
    id: row.id,
    kind: row.kind,
    text: cut ? `${words.slice(0, textUpTo).join('')}…` : row.text,
    cut,
    createdAt: row.createdAt.toISOString(),
    by: row.byName ?? null,
  }
  // Read back from the farm's mailbox: theirs, with no delivery of its own.
  if (delivery === null) {
    return {
      ...mail,
      state: 'received',
      sentAt: mail.createdAt,
      retryAt: null,
      failure: null,
      dismissed: false,
      otherSender: row.toAddress.toLowerCase() === leadAddress.toLowerCase() ? null : row.toAddress,
      attachments: row.attachments ?? [],
      tooLarge: row.tooLarge,
    }
  }
  const { state } = delivery
  return {
    ...mail,
    state: state === 'gave-up' || state === 'skipped' ? 'failed' : state,
    sentAt: delivery.sentAt?.toISOString() ?? null,
    retryAt: state === 'retrying' ? delivery.nextAttemptAt.toISOString() : null,
    failure: state === 'sent' ? null : delivery.lastError,
    dismissed: delivery.dismissedAt !== null,
    otherSender: null,
    attachments: [],
    tooLarge: false,
  }
}

/** One mail to a visitor with its delivery, or undefined. */
export function storedReply(
  db: FarmDatabase,
  replyId: number,
): (ReplyRow & { delivery: MailDelivery; byName: string | null }) | undefined {
  const row = db
    .select(replyWithWriter)
    .from(replies)
    .leftJoin(team, eq(team.id, replies.sentBy))
    .where(eq(replies.id, replyId))
    .get()
  const [mail] = row ? withDeliveries(db, [row]) : []
  return mail?.delivery ? { ...mail, delivery: mail.delivery } : undefined
}

/**
 * The submissions with their latest mails (at most `replyLimits.onCard` each, cut to a card's
 * length) and how many there are in all: one indexed read for a whole page.
 */
export function withThreads(db: FarmDatabase, shown: Submission[]): Submission[] {
  if (shown.length === 0) return shown
  const ids = shown.map((submission) => submission.id)
  const rows = db.all<Record<string, unknown> & { total: number }>(
    sql`SELECT r.*, t.name AS by_name FROM (SELECT *, row_number() OVER (PARTITION BY submission_id ORDER BY id DESC) AS place, count(*) OVER (PARTITION BY submission_id) AS total FROM ${replies} WHERE ${inArray(replies.submissionId, ids)}) r LEFT JOIN ${team} t ON t.id = r.sent_by WHERE r.place <= ${replyLimits.onCard} ORDER BY r.id`,
  )
  const changes = db.all<{ submission_id: number; change: LeadChange; name: string | null; at: number }>(
    sql`SELECT h.submission_id, h.change, t.name, h.at FROM (SELECT *, row_number() OVER (PARTITION BY submission_id ORDER BY id DESC) AS place FROM ${leadHistory} WHERE ${inArray(leadHistory.submissionId, ids)}) h LEFT JOIN ${team} t ON t.id = h.member_id WHERE h.place <= ${historyOnCard} ORDER BY h.id`,
  )
  const answered = new Map(
    db
      .select({ id: submissions.id, update: { id: updates.id, subject: updates.subject } })
      .from(submissions)
      .innerJoin(updates, eq(updates.id, submissions.answersUpdate))
      .where(inArray(submissions.id, ids))
      .all()
      .map(({ id, update }) => [id, update]),
  )
  const histories = new Map<number, LeadEvent[]>()
  for (const row of changes) {
    const events = histories.get(row.submission_id) ?? []
    events.push({ change: row.change, by: row.name, at: new Date(row.at).toISOString() })
    histories.set(row.submission_id, events)
  }
  if (rows.length === 0 && changes.length === 0 && answered.size === 0) return shown
  const threads = new Map<number, { replies: Reply[]; total: number }>()
  const addresses = new Map(shown.map((submission) => [submission.id, submission.email]))
  for (const row of withDeliveries(
    db,
    rows.map((raw) => ({ ...replyRow(raw), total: raw.total })),
  )) {
    const thread = threads.get(row.submissionId) ?? { replies: [], total: row.total }
    thread.replies.push(toReply(row, addresses.get(row.submissionId)!, replyLimits.textOnCard))
    threads.set(row.submissionId, thread)
  }
  return shown.map((submission) => {
    const thread = threads.get(submission.id)
    const extras = { history: histories.get(submission.id) ?? [], answersUpdate: answered.get(submission.id) ?? null }
    return thread
      ? { ...submission, replies: thread.replies, replyCount: thread.total, ...extras }
      : { ...submission, ...extras }
  })
}

/** A raw row (as `db.all` reads it) in drizzle's shape. */
function replyRow(raw: Record<string, unknown>): Omit<StoredReply, 'delivery'> {
  const at = (value: unknown) => (value === null ? null : new Date(Number(value)))
  return {
    id: Number(raw.id),
    submissionId: Number(raw.submission_id),
    kind: raw.kind as ReplyRow['kind'],
    toAddress: String(raw.to_address),
    addressKey: String(raw.address_key),
    text: String(raw.text),
    messageId: String(raw.message_id),
    references: (raw.references as string | null) ?? null,
    createdAt: at(raw.created_at)!,
    requestKey: (raw.request_key as string | null) ?? null,
    subscriberId: raw.subscriber_id === null || raw.subscriber_id === undefined ? null : Number(raw.subscriber_id),
    sentBy: raw.sent_by === null || raw.sent_by === undefined ? null : Number(raw.sent_by),
    byName: (raw.by_name as string | null | undefined) ?? null,
    attachments: typeof raw.attachments === 'string' ? (JSON.parse(raw.attachments) as ReplyRow['attachments']) : null,
    tooLarge: Boolean(raw.too_large),
  }
}

/** One submission with its thread. */
export const withThread = (db: FarmDatabase, submission: Submission): Submission => withThreads(db, [submission])[0]!

/** One submission with its thread, as a live message carries it; null when it is gone. */
export function submissionWithThread(db: FarmDatabase, id: number): Submission | null {
  const row = db.select().from(submissions).where(eq(submissions.id, id)).get()
  return row ? withThread(db, leadView(row)) : null
}

/** Tells the watchers a lead's thread changed (a mail queued, sent, failed, retried…); gives the lead as told. */
export function tellThread(db: FarmDatabase, events: SubmissionEvents, submissionId: number): Submission | null {
  const submission = submissionWithThread(db, submissionId)
  if (submission) events.publish({ type: 'SUBMISSION_UPDATED', data: submission })
  return submission
}

/** Every mail of one conversation, oldest first, with every word. */
export function wholeThread(db: FarmDatabase, submissionId: number): Reply[] {
  const lead = db.select({ email: submissions.email }).from(submissions).where(eq(submissions.id, submissionId)).get()
  if (!lead) return []
  const mails = db
    .select(replyWithWriter)
    .from(replies)
    .leftJoin(team, eq(team.id, replies.sentBy))
    .where(eq(replies.submissionId, submissionId))
    .orderBy(desc(replies.id))
    .limit(replyLimits.perLead + 1)
    .all()
    .reverse()
  return withDeliveries(db, mails).map((row) => toReply(row, lead.email))
}
