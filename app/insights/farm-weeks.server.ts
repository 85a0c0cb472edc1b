import { eq, sql } from 'drizzle-orm'
import { farmMondays, utc } from '#app/clock/farm-clock'
import type { FarmDatabase } from '#app/data/database.server'
import { farmWeeksMade } from '#app/data/schema'

/** A moment's week in SQL, as the triggers find it (drizzle/0028): the last of the farm's Mondays at or before it. */
export const weekSql = (column: string) => sql.raw(`(SELECT max(week) FROM farm_weeks WHERE week <= ${column})`)

/** Every count by week, counted again from the rows, as drizzle/0024 first counted them. */
function countAgain(tx: Pick<FarmDatabase, 'run'>) {
  // Each first reply's delete takes one from its week's answered count: those rows go next.
  tx.run(sql`DELETE FROM first_replies`)
  tx.run(sql`DELETE FROM weekly_leads`)
  tx.run(sql`DELETE FROM lead_weeks`)
  tx.run(sql`INSERT INTO weekly_leads (week, kind, value, count)
    SELECT ${weekSql('s.created_at')}, 'intent', CASE WHEN s.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(s.analysis, '$.intents[0]'), 'other') END, count(*)
    FROM submissions s WHERE s.spam_reasons IS NULL GROUP BY 1, 3`)
  tx.run(sql`INSERT INTO weekly_leads (week, kind, value, count)
    SELECT ${weekSql('s.created_at')}, 'product', p.value, count(DISTINCT s.id)
    FROM submissions s, json_each(s.analysis, '$.products') p WHERE s.spam_reasons IS NULL GROUP BY 1, 3`)
  // Each first reply adds one to its week's answered count (its trigger).
  tx.run(sql`INSERT INTO first_replies (submission_id, week, waited_ms)
    SELECT s.id, ${weekSql('s.created_at')}, max(0, min(r.created_at) - s.created_at)
    FROM replies r JOIN submissions s ON s.id = r.submission_id
    WHERE r.kind = 'reply' AND s.spam_reasons IS NULL GROUP BY s.id`)
  tx.run(sql`INSERT INTO lead_weeks (week, first_id)
    SELECT ${weekSql('created_at')}, min(id) FROM submissions GROUP BY 1`)
}

/**
 * Keeps the farm's weeks on its clock: when the zone differs from the one they were made for (or,
 * but in UTC, the time zone data, which a new Node may bring), its Mondays are made anew and every
 * lead counted again in its week, in one transaction. A change of the clock is rare and costs
 * a read of every lead; each lead written meanwhile waits for it. Says whether they were made anew.
 */
export function keepWeeksOn(db: FarmDatabase, zone: string, tzdata = process.versions.tz ?? ''): boolean {
  const made = db.select().from(farmWeeksMade).where(eq(farmWeeksMade.id, 1)).get()
  if (made && made.zone === zone && (zone === utc || made.tzdata === tzdata)) return false
  const mondays = JSON.stringify(farmMondays(zone))
  db.transaction((tx) => {
    tx.run(sql`DELETE FROM farm_weeks`)
    tx.run(sql`INSERT INTO farm_weeks (week) SELECT value FROM json_each(${mondays})`)
    tx.insert(farmWeeksMade)
      .values({ id: 1, zone, tzdata })
      .onConflictDoUpdate({ target: farmWeeksMade.id, set: { zone, tzdata } })
      .run()
    countAgain(tx)
  })
  return true
}
