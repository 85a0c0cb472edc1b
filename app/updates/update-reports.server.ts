import { desc, eq, gte, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { updates, type UpdateRow } from '#app/data/schema'
import {
  sentSince,
  somethingWaits,
  updateFailures,
  updateMailStates,
  updateSubscribersWho,
} from '#app/delivery/reads.server'
import type { ReturnRates, UpdateReport } from './update'

/** How many past updates the page reports on. */
const reportsOnPage = 10

/** How the updates went, from their outbox rows: each update's report, and the returns of the last 30 days. */
export function createUpdateReports({ db, now }: { db: FarmDatabase; now: () => Date }) {
  function report(row: UpdateRow): UpdateReport {
    const counts = { queued: 0, retrying: 0, sent: 0, failed: 0, skipped: 0, bounced: 0 }
    for (const { state, n } of updateMailStates(db, row.id)) {
      // `queued` counts all that wait for their turn, `retrying` those of them that failed once.
      if (state === 'retrying') counts.retrying += n
      counts[state === 'retrying' ? 'queued' : state === 'gave-up' ? 'failed' : state] += n
    }
    const failures = updateFailures(db, row.id, 5)
    const complained = db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM returned_mails WHERE update_id = ${row.id} AND kind = 'complaint'`,
    ).n
    const left = updateSubscribersWho(
      db,
      row.id,
      sql`s.status = 'unsubscribed' AND s.unsubscribed_by = 'them' AND s.unsubscribed_at >= ${row.createdAt.getTime()}`,
    )
    return {
      id: row.id,
      subject: row.subject,
      createdAt: row.createdAt.toISOString(),
      audience: { products: row.products, intents: row.intents },
      recipients: row.recipients,
      ...counts,
      complained,
      unsubscribedSince: left,
      failures,
      sentBy:
        row.sentBy === null
          ? null
          : (db.get<{ name: string } | undefined>(sql`SELECT name FROM team WHERE id = ${row.sentBy}`)?.name ?? null),
    }
  }

  return {
    /** Bounces and complaints of the last 30 days against the update mails sent in them, from indexed counts. */
    returnRates(): ReturnRates {
      const since = now().getTime() - 30 * 24 * 60 * 60 * 1000
      const returned = db.get<Omit<ReturnRates, 'sent'>>(
        sql`SELECT
        (SELECT count(DISTINCT delivery_id) FROM returned_mails WHERE kind = 'bounce' AND update_id IS NOT NULL AND received_at >= ${since}) AS bounced,
        (SELECT count(DISTINCT delivery_id) FROM returned_mails WHERE kind = 'complaint' AND update_id IS NOT NULL AND received_at >= ${since}) AS complaints`,
      )
      return { sent: sentSince(db, 'update-mail', new Date(since)), ...returned }
    },

    /** One update's report, or null when there is no such update. */
    report(id: number): UpdateReport | null {
      const row = db.select().from(updates).where(eq(updates.id, id)).get()
      return row ? report(row) : null
    },

    /** The latest updates' reports, newest first. */
    reports(): UpdateReport[] {
      return db.select().from(updates).orderBy(desc(updates.id)).limit(reportsOnPage).all().map(report)
    },

    /** The reports of the updates sent since a moment, newest first, at most `most` (the insights). */
    reportsSince(since: Date, most: number): UpdateReport[] {
      return db
        .select()
        .from(updates)
        .where(gte(updates.createdAt, since))
        .orderBy(desc(updates.id))
        .limit(most)
        .all()
        .map(report)
    },

    /** Whether mails of an update wait to be sent (the page then looks again while they go). */
    sending(): boolean {
      return somethingWaits(db, 'update-mail')
    },
  }
}
