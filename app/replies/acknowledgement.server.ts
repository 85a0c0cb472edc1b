import { and, count, eq, gt, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { farmTexts, replies, type SubmissionRow } from '#app/data/schema'
import type { Log } from '#app/log'
import { fillPlaceholders } from './placeholders'
import { newMessageId } from './reply-mail.server'

export const defaultAcknowledgement =
  'Thank you for writing to {farm}. We have your message, and we will answer it as soon as we can.\n\n{farm}'

export const acknowledgementKey = 'acknowledgement'

const dayMs = 24 * 60 * 60 * 1000
const hourMs = 60 * 60 * 1000
/**
 * Anyone can type anyone's address into the form: past this many acknowledgements in an hour
 * (more than a farm's busiest hour of real enquiries), no more go out until the hour has passed.
 */
export const mostAcknowledgementsPerHour = 60

/**
 * The automatic "we got your message" (VISITOR_ACK): queued inside the transaction that keeps a
 * clean lead, from the owner's fixed text, which never holds a word the visitor typed. At most one
 * per address a day, and at most `mostAcknowledgementsPerHour` in all.
 */
export function createAcknowledgements({
  db,
  farmName,
  from,
  log,
}: {
  db: FarmDatabase
  farmName: string
  from: string
  log: Log
}) {
  const ownText = db
    .select({ text: farmTexts.text })
    .from(farmTexts)
    .where(eq(farmTexts.key, acknowledgementKey))
    .prepare()
  const sentSince = sql.placeholder('since')
  const toAddressSince = db
    .select({ id: replies.id })
    .from(replies)
    .where(
      and(
        eq(replies.kind, 'acknowledgement'),
        gt(replies.createdAt, sentSince),
        sql`lower(${replies.toAddress}) = lower(${sql.placeholder('address')})`,
      ),
    )
    .limit(1)
    .prepare()
  const inAllSince = db
    .select({ count: count() })
    .from(replies)
    .where(and(eq(replies.kind, 'acknowledgement'), gt(replies.createdAt, sentSince)))
    .prepare()
  const insert = db.insert(replies)

  return {
    /** For a lead just kept or read again: queues its acknowledgement when it is owed one; says whether it did. */
    queueFor(row: SubmissionRow, now: Date = row.createdAt): boolean {
      const clean = row.spamReasons === null && row.reanalyseAt === null && row.analysis !== null
      if (!clean) return false
      const at = now.getTime()
      if (toAddressSince.get({ since: at - dayMs, address: row.email })) return false
      if ((inAllSince.get({ since: at - hourMs })?.count ?? 0) >= mostAcknowledgementsPerHour) {
        log.warn({ lead: row.id }, 'not acknowledging this lead: the hour’s acknowledgements are all sent')
        return false
      }
      const text = fillPlaceholders(ownText.get()?.text ?? defaultAcknowledgement, { farm: farmName })
      insert
        .values({
          submissionId: row.id,
          kind: 'acknowledgement',
          toAddress: row.email,
          text,
          messageId: newMessageId(from),
          queuedAt: now,
          nextAttemptAt: now,
          createdAt: now,
        })
        .run()
      return true
    },
  }
}

export type Acknowledgements = ReturnType<typeof createAcknowledgements>
