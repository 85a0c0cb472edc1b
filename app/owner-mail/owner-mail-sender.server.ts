import { randomBytes } from 'node:crypto'
import type { FarmDatabase } from '#app/data/database.server'
import type { SubmissionRow } from '#app/data/schema'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import { backlogOf, owingOn } from '#app/delivery/record.server'
import { mostPerDigest, ownerMailBatches, ownerMailOf } from './owner-mail-round.server'
import { ownerMailCarrier, type OwnerMailSettings } from './owner-mail-sending.server'

export type { OwnerMailSettings } from './owner-mail-sending.server'

// Refused mails are halved and sent again; a round sends at most this many.
const mostMailsPerRound = 40

/**
 * Mails the owner about every lead in the outbox, on the delivery engine. Past `digestAfter`
 * mails within a digest window, leads wait for one digest mail per window, so a burst cannot
 * flood the owner's mailbox.
 */
export function createOutboxSender({
  engine,
  db,
  settings,
  retryBaseMs,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  /** The settings now: null while the owner's mail is not set up. */
  settings: () => OwnerMailSettings | null
  /** The first retry waits this long (NOTIFY_RETRY_SECONDS); each next one twice as long (with jitter), up to a day in all. */
  retryBaseMs: number
}) {
  const { now } = engine

  /** The mails that wait, the owner's and the visitors', and how long the oldest has waited. */
  function backlog() {
    const { unsent, oldest } = backlogOf(db, ['owner-mail', 'visitor-mail'])
    return { unsent, oldestUnsentSeconds: oldest ? Math.round((now() - oldest.getTime()) / 1000) : 0 }
  }

  engine.deliver({
    kind: 'owner-mail',
    name: 'owner mail',
    setup: settings,
    retryBaseMs,
    mostRowsPerRound: (setup) => mostPerDigest + setup.digestAfter,
    mostPerRound: mostMailsPerRound,
    batchesOf: ownerMailBatches(db),
    regroup: ownerMailOf,
    send: ownerMailCarrier(engine.smtp()),
    backlog,
    words: {
      later: 'could not mail the owner; trying again later',
      refused: 'the mail server refused the mail about this lead; it is in the inbox',
      gaveUp: 'gave up mailing the owner about these leads after a day of trying',
    },
  })

  const owing = owingOn(db)
  // A lead's mail, or (with `answerId`) the mail about the visitor's answer to the farm.
  const owe = (submissionId: number, replyId: number | null, at: Date) =>
    owing({ kind: 'owner-mail', submissionId, replyId, receiptKey: `lead.${randomBytes(16).toString('hex')}` }, at)

  return {
    /** How many mails wait to be sent, and how long the oldest has waited. */
    backlog,
    /** Inside the transaction that keeps a visitor's answer: the owner is mailed it, as about a new lead. */
    queueAnswer(lead: SubmissionRow, answerId: number, at: Date): void {
      if (!settings()) return
      owe(lead.id, answerId, at)
    },
    /** Inside the transaction that keeps a lead (or reads it again): its mail to the owner, never for spam. */
    queueFor(row: SubmissionRow, at: Date): void {
      if (row.spamReasons !== null || row.reanalyseAt !== null || !settings()) return
      owe(row.id, null, at)
    },
  }
}
