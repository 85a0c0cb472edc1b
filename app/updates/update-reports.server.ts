import { and, desc, eq, gte, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { DeliveryState } from '#app/data/enums'
import { deliveries, updates, type UpdateRow } from '#app/data/schema'
import { waiting } from '#app/delivery/record.server'
import type { ReturnRates, UpdateReport } from './update'

/** How many past updates the page reports on. */
const reportsOnPage = 10

/** How the updates went, from their outbox rows: each update's report, and the returns of the last 30 days. */
export function createUpdateReports({ db, now }: { db: FarmDatabase; now: () => Date }) {
  function report(row: UpdateRow): UpdateReport {
    const counts = { queued: 0, retrying: 0, sent: 0, failed: 0, skipped: 0, bounced: 0 }
    for (const { state, n } of db.all<{ state: DeliveryState; n: number }>(
      sql`SELECT state, count(*) AS n FROM deliveries WHERE update_id = ${row.id} GROUP BY 1`,
    )) {
      // `queued` counts all that wait for their turn, `retrying` those of them that failed once.
      if (state === 'retrying') counts.retrying += n
      counts[state === 'retrying' ? 'queued' : state === 'gave-up' ? 'failed' : state] += n
    }
    const failures = db.all<{ reason: string; count: number }>(
      sql`SELECT coalesce(last_error, 'No reason given') AS reason, count(*) AS count FROM deliveries
          WHERE update_id = ${row.id} AND state IN ('failed', 'gave-up') GROUP BY 1 ORDER BY 2 DESC LIMIT 5`,
    )
    const complained = db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM returned_mails WHERE update_id = ${row.id} AND kind = 'complaint'`,
    ).n
    const left = db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM deliveries um JOIN subscribers s ON s.id = um.subscriber_id
          WHERE um.update_id = ${row.id} AND s.status = 'unsubscribed' AND s.unsubscribed_by = 'them'
          AND s.unsubscribed_at >= ${row.createdAt.getTime()}`,
    ).n
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
      return db.get<ReturnRates>(
        sql`SELECT
        (SELECT count(*) FROM deliveries WHERE kind = 'update-mail' AND sent_at >= ${since}) AS sent,
        (SELECT count(DISTINCT delivery_id) FROM returned_mails WHERE kind = 'bounce' AND update_id IS NOT NULL AND received_at >= ${since}) AS bounced,
        (SELECT count(DISTINCT delivery_id) FROM returned_mails WHERE kind = 'complaint' AND update_id IS NOT NULL AND received_at >= ${since}) AS complaints`,
      )
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
      return (
        db
          .select({ id: deliveries.id })
          .from(deliveries)
          .where(and(eq(deliveries.kind, 'update-mail'), waiting))
          .limit(1)
          .all().length > 0
      )
    },
  }
}
