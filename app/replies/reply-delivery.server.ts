import { eq, inArray } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { replies, submissions, type DeliveryRow, type ReplyRow } from '#app/data/schema'
import { owedSinceLastLook, type DeliveryEngine } from '#app/delivery/engine.server'
import { owe } from '#app/delivery/record.server'
import { idsOf } from '#app/delivery/sender.server'
import { mailVerdict } from '#app/delivery/smtp-refusals.server'
import type { SubmissionEvents } from '#app/live/events.server'
import { visitorMail, type VisitorMailSettings } from './reply-mail.server'
import { tellThread } from './threads.server'

/** Owes mails to visitors without looking for them: what the sender below, and a test, build on. */
export const keptVisitorMails = (engine: Pick<DeliveryEngine, 'owed'>): VisitorMails => ({
  owe: (tx, replyId, submissionId, at) => owe(tx, { kind: 'visitor-mail', replyId, submissionId }, at),
  queued: engine.owed,
})

/** Where the mails to visitors are owed: by replies and acknowledgements, in their own transactions. */
export interface VisitorMails {
  /** Owes the mail of a reply just written, in the same transaction. */
  owe(tx: Pick<FarmDatabase, 'insert'>, replyId: number, submissionId: number, at: Date): void
  /** After the commit: one was owed, or queued again (the owner's 'Try again'). */
  queued(): void
}

type VisitorMailItem = { reply: ReplyRow; lead: { message: string; createdAt: Date; language: string | null } }

/**
 * Delivers the mails to visitors (replies and acknowledgements) on the delivery engine, one mail
 * a row. Every change of state goes to the watchers, with the submission's thread.
 */
export function createReplyDelivery({
  engine,
  db,
  events,
  settings,
  retryBaseMs,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  events: SubmissionEvents
  /** The mail server and who mails now: null while mail is not set up (what is owed waits). */
  settings: () => (VisitorMailSettings & { smtpUrl: string }) | null
  retryBaseMs: number
}) {
  const transport = engine.smtp()

  function batchesOf(rows: DeliveryRow[]) {
    if (rows.length === 0) return { batches: [] }
    const found = db
      .select({
        reply: replies,
        lead: { message: submissions.message, createdAt: submissions.createdAt, language: submissions.language },
      })
      .from(replies)
      .innerJoin(submissions, eq(submissions.id, replies.submissionId))
      .where(inArray(replies.id, idsOf(rows, 'replyId')))
      .all()
    const items = new Map(found.map((item) => [item.reply.id, item]))
    return {
      batches: rows.flatMap((row) => {
        const item = row.replyId === null ? undefined : items.get(row.replyId)
        return item ? [{ rows: [row], item }] : []
      }),
    }
  }

  // Whether a commit may have owed a mail to a visitor: a lead's commit mostly owes none, and
  // looking on each cost the POST path a fifth of its rate with 5,000 leads waiting for a digest.
  const lately = owedSinceLastLook()
  engine.deliver<VisitorMailItem, VisitorMailSettings & { smtpUrl: string }>({
    kind: 'visitor-mail',
    name: 'mails to visitors',
    setup: settings,
    retryBaseMs,
    batchesOf,
    async send({ item: { reply, lead } }, current) {
      try {
        await transport.send(current.smtpUrl, visitorMail(reply, lead, current))
      } catch (error) {
        return mailVerdict(error)
      }
      return { sent: true }
    },
    told: (rows) => {
      for (const submissionId of new Set(rows.map((row) => row.submissionId)))
        if (submissionId !== null) void tellThread(db, events, submissionId)
    },
    words: {
      later: 'could not mail a visitor; trying again later',
      refused: 'the mail server refused a mail to a visitor',
      gaveUp: 'gave up mailing the visitor after a day of trying',
    },
    mayHaveWork: lately.mayHaveWork,
  })
  const kept = keptVisitorMails(engine)
  return {
    owe(...owing: Parameters<VisitorMails['owe']>) {
      kept.owe(...owing)
      lately.owed()
    },
    queued() {
      lately.owed()
      engine.owed()
    },
  } satisfies VisitorMails
}
