import { sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { deliveries, type SubmissionRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import { backlogOf } from '#app/delivery/record.server'
import type { Log } from '#app/log'
import { createOwnerMailRound } from './owner-mail-round.server'
import { createOwnerMailSending, type OwnerMailSettings } from './owner-mail-sending.server'

export type { OwnerMailSettings } from './owner-mail-sending.server'

/**
 * Mails the owner about every lead in the outbox. Each row is marked sent only once the
 * mail server has accepted the mail it went in; what fails waits and is tried again, for up
 * to a day. Past `digestAfter` mails within a digest window, leads wait for one digest mail
 * per window, so a burst cannot flood the owner's mailbox.
 */
export function createOutboxSender({
  engine,
  db,
  settings,
  retryBaseMs,
  log,
  writes,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  /** The settings now: null while the owner's mail is not set up. */
  settings: () => OwnerMailSettings | null
  /** The first retry waits this long (NOTIFY_RETRY_SECONDS); each next one twice as long (with jitter), up to a day in all. */
  retryBaseMs: number
  log: Log
  writes: Writes
}) {
  const { now } = engine
  // While leads wait for the next digest, a new lead can only join them: no need to look.
  let digestWaitsUntil = 0

  /** The mails that wait, the owner's and the visitors', and how long the oldest has waited. */
  function backlog() {
    const { unsent, oldest } = backlogOf(db, ['owner-mail', 'visitor-mail'])
    return { unsent, oldestUnsentSeconds: oldest ? Math.round((now() - oldest.getTime()) / 1000) : 0 }
  }

  const sending = createOwnerMailSending({ engine, db, writes, log, retryBaseMs, backlog })
  const deliverDue = createOwnerMailRound({ engine, db, writes, log, settings, sending, backlog })
  // A lead's mail, or (with `answerId`) the mail about the visitor's answer to the farm.
  const insert = db
    .insert(deliveries)
    .values({
      kind: 'owner-mail',
      submissionId: sql.placeholder('submissionId'),
      replyId: sql.placeholder('answerId'),
      nextAttemptAt: sql.placeholder('at'),
      createdAt: sql.placeholder('at'),
      receiptKey: sql`'lead.' || lower(hex(randomblob(16)))`,
    })
    .prepare()

  engine.run({
    name: 'owner mail',
    round: async () => {
      const delivered = await deliverDue()
      digestWaitsUntil = delivered.digestWaiting && delivered.wakeAt !== null ? delivered.wakeAt : 0
      return delivered.wakeAt
    },
    retryMs: retryBaseMs,
    mayHaveWork: () => now() >= digestWaitsUntil,
    lastly: sending.accepted.markBeforeStop,
  })

  return {
    /** How many mails wait to be sent, and how long the oldest has waited. */
    backlog,
    /** Inside the transaction that keeps a visitor's answer: the owner is mailed it, as about a new lead. */
    queueAnswer(lead: SubmissionRow, answerId: number, at: Date): void {
      if (!settings()) return
      insert.run({ submissionId: lead.id, answerId, at })
    },
    /** Inside the transaction that keeps a lead (or reads it again): its mail to the owner, never for spam. */
    queueFor(row: SubmissionRow, at: Date): void {
      if (row.spamReasons !== null || row.reanalyseAt !== null || !settings()) return
      insert.run({ submissionId: row.id, answerId: null, at })
    },
  }
}
