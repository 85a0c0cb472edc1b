import Sqlite from 'better-sqlite3'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { createUpdates } from '#app/updates/updates.server'
import { migrationsFolder, migrationsUpTo } from '#tests/support/database'
import { seasonUpdate, seedSeason } from '#tests/support/season'
import { tempDatabasePath } from '#tests/support/server'
import { farmMondays, weekOf } from '#app/clock/farm-clock'
import { productChange, readRange, waitWords } from './insights'
import { createInsights } from './insights.server'
import { keepWeeksOn } from './farm-weeks.server'
import { placeOrders } from '#tests/support/orders'

const hourMs = 60 * 60 * 1000
// Wednesday 25 Nov 2026, noon: the season's leads fall in the weeks of 23, 16 and 9 Nov and 19 Oct.
const now = Date.UTC(2026, 10, 25, 12)
const opened: OpenDatabase[] = []
afterEach(() => {
  for (const database of opened.splice(0)) database.close()
})

/** The season in a new file; on `zone`'s clock, its weeks made before the leads came (or after, `recounted`). */
function seasonAt(migrations = migrationsFolder, { zone = 'UTC', recounted = false } = {}) {
  const path = tempDatabasePath()
  openDatabase(path, migrations).close()
  const database = openDatabase(path, migrationsFolder)
  opened.push(database)
  if (!recounted) keepWeeksOn(database.db, zone)
  seedSeason(path, now)
  if (recounted) keepWeeksOn(database.db, zone)
  const updates = createUpdates({ db: database.db, writes: database.writes, products: () => [], queued: () => {} })
  const clock = { at: now }
  const insights = createInsights({
    db: database.db,
    now: () => clock.at,
    timeZone: () => zone,
    updateReports: updates.reportsSince,
  })
  const sqlite = new Sqlite(path)
  const change = (query: string) => sqlite.prepare(query).run()
  return { insights, change, clock, db: database.db, path, close: () => sqlite.close() }
}

const week = (day: number, month = 10) => new Date(Date.UTC(2026, month, day)).toISOString()

describe('the weeks and ranges', () => {
  it('starts a week on Monday, 00:00 UTC until the farm’s clock is chosen: the weeks drizzle/0028 made are those', () => {
    const { db, close } = seasonAt()
    close()
    const made = db.all<{ week: number }>(sql`SELECT week FROM farm_weeks ORDER BY week`).map((row) => row.week)
    expect(made).toEqual(farmMondays('UTC'))
    expect(made).toContain(Date.UTC(2026, 10, 23))
    expect(weekOf(now, 'UTC')).toBe(Date.UTC(2026, 10, 23))
  })

  it('takes only the ranges offered, spelled as offered, once', () => {
    const read = (query: string) => readRange(new URLSearchParams(query))
    expect(read('')).toEqual({ ok: true, weeks: 12 })
    for (const weeks of [4, 12, 52]) expect(read(`weeks=${weeks}`)).toEqual({ ok: true, weeks })
    for (const query of [
      'weeks=',
      'weeks=13',
      'weeks=012',
      'weeks=12.0',
      'weeks=1e1',
      'weeks=-4',
      'weeks=%2012',
      'weeks=4&weeks=12',
      'weeks=year',
    ]) {
      expect(read(query), query).toEqual({
        ok: false,
        error: 'The "weeks" parameter must be given once, as one of 4, 12, 52.',
      })
    }
  })

  it('says waits and changes as the owner reads them', () => {
    expect(waitWords(30 * 60_000)).toBe('30 min')
    expect(waitWords(5.5 * hourMs)).toBe('5.5 h')
    expect(waitWords(26 * hourMs)).toBe('26 h')
    expect(waitWords(80 * hourMs)).toBe('3.3 days')
    expect(productChange({ product: 'eggs', count: 41, before: 19 })).toBe('eggs: 41, up from 19')
    expect(productChange({ product: 'honey', count: 2, before: 5 })).toBe('honey: 2, down from 5')
    expect(productChange({ product: 'jam', count: 3, before: 3 })).toBe('jam: 3, the same as before')
  })
})

describe('the insights of a season', () => {
  it('counts leads per week by their first intent, products against the weeks before, never spam', () => {
    const { insights, close } = seasonAt()
    const figures = insights.figures(4)
    close()
    expect(figures.since).toBe(week(2))
    expect(figures.asOf).toBe(new Date(now).toISOString())
    expect(figures.leads.byWeek).toEqual([
      { week: week(2), total: 0, byIntent: {}, inbox: null },
      { week: week(9), total: 1, byIntent: { unread: 1 }, inbox: '/farm-sales?after=2&before=4' },
      { week: week(16), total: 4, byIntent: { order: 2, pricing: 1, visit: 1 }, inbox: '/farm-sales?after=3&before=8' },
      {
        week: week(23),
        total: 3,
        byIntent: { order: 1, product_inquiry: 1, wholesale: 1 },
        inbox: '/farm-sales?after=7',
      },
    ])
    expect(figures.leads.total).toBe(8)
    expect(figures.leads.intents).toEqual(['order', 'product_inquiry', 'pricing', 'visit', 'wholesale', 'unread'])
    expect(figures.leads.byIntent.order).toEqual({ count: 3, inbox: '/farm-sales?intent=order&after=2' })
    expect(figures.leads.byIntent.unread).toEqual({ count: 1, inbox: null })
    expect(figures.products.map(productChange)).toEqual(['eggs: 4, up from 1', 'honey: 2, up from 0'])
    expect(figures.products[0]!.inbox).toBe('/farm-sales?product=eggs&after=2')
  })

  it('gives the median and 90th percentile of the first reply per week, and who still waits, by age', () => {
    const { insights, close } = seasonAt()
    const { answers } = insights.figures(4)
    close()
    expect(answers.byWeek).toEqual([
      { week: week(2), answered: 0, medianMs: null, p90Ms: null, inbox: null },
      { week: week(9), answered: 0, medianMs: null, p90Ms: null, inbox: null },
      // e 2 h (its acknowledgement and second reply do not count), f 5 h, g 26 h: nearest rank.
      {
        week: week(16),
        answered: 3,
        medianMs: 5 * hourMs,
        p90Ms: 26 * hourMs,
        inbox: '/farm-sales?after=3&before=8',
      },
      {
        week: week(23),
        answered: 1,
        medianMs: 30 * 60_000,
        p90Ms: 30 * 60_000,
        inbox: '/farm-sales?after=7',
      },
    ])
    expect(answers.waiting).toEqual([
      { label: 'Under a day', count: 1, inbox: '/farm-sales?status=new&after=10' },
      { label: '1 to 3 days', count: 1, inbox: '/farm-sales?status=new&after=7&before=11' },
      { label: 'More than 3 days', count: 2, inbox: '/farm-sales?status=new&before=8' },
    ])
  })

  it('reads the percentiles by nearest rank over ties, and leaves the acknowledgement and later replies out', () => {
    const { insights, change, close } = seasonAt()
    // Ten leads on Tuesday 3 Nov, answered after 1, 1, 1, 2, 2, 3, 5, 8, 13 and 21 hours.
    const waits = [13, 1, 2, 21, 1, 5, 2, 8, 3, 1]
    const tuesday = Date.UTC(2026, 10, 3, 9)
    waits.forEach((hours, n) => {
      change(
        `INSERT INTO submissions (name, email, message, created_at) VALUES ('Tie ${n}', 't${n}@example.com', 'Eggs?', ${tuesday + n})`,
      )
      change(
        `INSERT INTO replies (submission_id, kind, to_address, address_key, text, message_id, created_at)
         SELECT id, kind, email, email, 'Yes', '<tie.' || ${n} || '.' || kind || '@farm.test>', created_at + ${hours * hourMs} * (CASE kind WHEN 'reply' THEN 1 ELSE 0 END) + 60000
         FROM submissions, (SELECT 'acknowledgement' AS kind UNION ALL SELECT 'reply') WHERE name = 'Tie ${n}'`,
      )
    })
    const [first] = insights.figures(4).answers.byWeek
    close()
    expect(first).toMatchObject({
      week: week(2),
      answered: 10,
      medianMs: 2 * hourMs + 60_000,
      p90Ms: 13 * hourMs + 60_000,
    })
  })

  it('links only to leads there are: no link for an empty age, nor for a product asked about only before', () => {
    const { insights, clock, close } = seasonAt()
    // Four days on, nothing is newer than three days; a month on, the 4 weeks before hold them all.
    clock.at = now + 4 * 24 * hourMs
    const waiting = insights.figures(4).answers.waiting
    clock.at = now + 28 * 24 * hourMs
    const later = insights.figures(4)
    close()
    expect(waiting).toEqual([
      { label: 'Under a day', count: 0, inbox: null },
      { label: '1 to 3 days', count: 0, inbox: null },
      { label: 'More than 3 days', count: 4, inbox: '/farm-sales?status=new' },
    ])
    expect(later.leads.total).toBe(0)
    expect(later.products).toEqual([
      { product: 'eggs', count: 0, before: 4, inbox: null },
      { product: 'honey', count: 0, before: 2, inbox: null },
    ])
  })

  it('counts subscribers who joined, left and bounced per week, and each update’s mails', () => {
    const { insights, change, close } = seasonAt()
    const figures = insights.figures(4)
    // Ten updates more this week: the latest 10 are listed, and it says more were sent.
    for (let n = 0; n < 10; n++) {
      change(
        `INSERT INTO updates (subject, text, products, intents, recipients, created_at) VALUES ('Week news ${n}', 'News.', '[]', '[]', 0, ${now - n * 60_000})`,
      )
    }
    const busy = insights.figures(4)
    close()
    expect(figures.moreUpdates).toBe(false)
    expect(busy.moreUpdates).toBe(true)
    expect(busy.updates.map((update) => update.subject)).toEqual(
      Array.from({ length: 10 }, (_, n) => `Week news ${9 - n}`),
    )
    expect(figures.subscribers).toEqual({
      now: 2,
      byWeek: [
        { week: week(2), joined: 0, left: 0, bounced: 0 },
        { week: week(9), joined: 1, left: 0, bounced: 0 },
        { week: week(16), joined: 1, left: 0, bounced: 1 },
        { week: week(23), joined: 1, left: 1, bounced: 0 },
      ],
    })
    expect(figures.updates).toEqual([
      {
        id: 1,
        subject: seasonUpdate.subject,
        sentAt: new Date(now - 6 * 24 * hourMs).toISOString(),
        recipients: 4,
        sent: 2,
        failed: 1,
        unsubscribed: 1,
        bounced: 1,
        complained: 1,
      },
    ])
  })

  it('reads 12 weeks and a year, each against as many weeks before', () => {
    const { insights, close } = seasonAt()
    const season = insights.figures(12)
    const year = insights.figures(52)
    close()
    expect(season.leads.byWeek).toHaveLength(12)
    expect(season.since).toBe(week(7, 8))
    expect(season.leads.total).toBe(9)
    expect(season.products.map(productChange)).toEqual(['eggs: 5, up from 0', 'honey: 2, up from 0'])
    expect(year.leads.byWeek).toHaveLength(52)
    expect(year.since).toBe(new Date(Date.UTC(2025, 11, 1)).toISOString())
    expect(year.leads.total).toBe(10)
    expect(year.subscribers.byWeek.reduce((sum, row) => sum + row.joined, 0)).toBe(3)
  })

  it('keeps its counts as leads go to spam and back, are read again and are deleted', () => {
    const { insights, change, close } = seasonAt()
    change(`UPDATE submissions SET spam_reasons = '["links"]' WHERE name = 'Lead e'`)
    let figures = insights.figures(4)
    expect(figures.leads.byWeek[2]!.byIntent).toEqual({ order: 1, pricing: 1, visit: 1 })
    expect(figures.products.map(productChange)).toEqual(['eggs: 3, up from 1', 'honey: 2, up from 0'])
    expect(figures.answers.byWeek[2]).toMatchObject({ answered: 2, medianMs: 5 * hourMs, p90Ms: 26 * hourMs })
    change(`UPDATE submissions SET spam_reasons = NULL WHERE name = 'Lead e'`)
    figures = insights.figures(4)
    expect(figures.leads.byWeek[2]!.byIntent).toEqual({ order: 2, pricing: 1, visit: 1 })
    expect(figures.answers.byWeek[2]).toMatchObject({ answered: 3, medianMs: 5 * hourMs })
    change(
      `UPDATE submissions SET analysis = json('{"intents":["offers"],"products":["honey"],"sentiment":{"label":"neutral","score":0},"urgency":{"level":"normal","cues":[]},"spam":{"isSpam":false,"reasons":[]},"source":"offline"}') WHERE name = 'Lead i'`,
    )
    change(`DELETE FROM submissions WHERE name = 'Lead c'`)
    figures = insights.figures(4)
    close()
    expect(figures.leads.byWeek[1]!.byIntent).toEqual({ offers: 1 })
    expect(figures.leads.byWeek[3]!.byIntent).toEqual({ order: 1, product_inquiry: 1 })
    expect(figures.products.map(productChange)).toEqual(['eggs: 3, up from 1', 'honey: 3, up from 0'])
    expect(figures.answers.byWeek[3]).toMatchObject({ answered: 0, medianMs: null })
    expect(figures.answers.waiting.map((age) => age.count)).toEqual([1, 1, 2])
  })

  it('counts a database that had leads before the counts were kept, the same (drizzle/0024)', () => {
    const fresh = seasonAt()
    const migrated = seasonAt(migrationsUpTo('0023_whose_password_whose_link'))
    for (const weeks of [4, 12, 52] as const)
      expect(migrated.insights.figures(weeks)).toEqual(fresh.insights.figures(weeks))
    fresh.close()
    migrated.close()
  })
})

describe('the weeks on the farm’s clock', () => {
  // Monday 23 Nov 2026, 00:00 in Auckland (summer time, UTC+13) is Sunday 22 Nov, 11:00 UTC.
  const aucklandWeek = (day: number, month = 10) => new Date(Date.UTC(2026, month, day - 1, 11)).toISOString()

  it('counts a lead of Sunday 23:30 UTC in the Monday’s week in Auckland, and in the week before in UTC', () => {
    for (const zone of ['UTC', 'Pacific/Auckland']) {
      const { insights, change, close } = seasonAt(migrationsFolder, { zone })
      change(
        `INSERT INTO submissions (name, email, message, created_at) VALUES ('Late', 'late@example.com', 'Eggs?', ${Date.UTC(2026, 10, 22, 23, 30)})`,
      )
      const figures = insights.figures(4)
      close()
      expect(figures.timeZone).toBe(zone)
      const late = zone === 'UTC' ? week(16) : aucklandWeek(23)
      expect(figures.leads.byWeek.find((row) => row.week === late)!.byIntent.unread, zone).toBe(1)
    }
  })

  it('starts the weeks at the farm’s midnight, in ISO 8601 and UTC: the API’s words stay UTC', () => {
    const { insights, close } = seasonAt(migrationsFolder, { zone: 'Pacific/Auckland' })
    const figures = insights.figures(4)
    close()
    expect(figures.since).toBe(aucklandWeek(2))
    expect(figures.leads.byWeek.map((row) => row.week)).toEqual([2, 9, 16, 23].map((day) => aucklandWeek(day)))
    expect(figures.asOf).toBe(new Date(now).toISOString())
  })

  it('counts the same whether the leads came before the clock was chosen or after', () => {
    const after = seasonAt(migrationsFolder, { zone: 'Pacific/Auckland' })
    const before = seasonAt(migrationsFolder, { zone: 'Pacific/Auckland', recounted: true })
    for (const weeks of [4, 12, 52] as const)
      expect(before.insights.figures(weeks)).toEqual(after.insights.figures(weeks))
    after.close()
    before.close()
  })

  it('counts every week again when the clock changes, and back again, and only then', () => {
    const utc = seasonAt()
    const moved = seasonAt()
    const figures = () => moved.insights.figures(12)
    const asFirst = figures()
    expect(keepWeeksOn(moved.db, 'UTC')).toBe(false)
    expect(keepWeeksOn(moved.db, 'Pacific/Auckland')).toBe(true)
    expect(keepWeeksOn(moved.db, 'Pacific/Auckland')).toBe(false)
    expect(figures().leads.byWeek[11]!.week).not.toBe(asFirst.leads.byWeek[11]!.week)
    expect(keepWeeksOn(moved.db, 'UTC')).toBe(true)
    expect(figures()).toEqual(asFirst)
    expect(figures()).toEqual(utc.insights.figures(12))
    // New time zone data (a new Node) makes a zone's weeks anew; UTC's never change.
    expect(keepWeeksOn(moved.db, 'UTC', 'another')).toBe(false)
    keepWeeksOn(moved.db, 'Europe/London')
    expect(keepWeeksOn(moved.db, 'Europe/London', 'another')).toBe(true)
    utc.close()
    moved.close()
  })
})

describe('the orders', () => {
  it('counts orders by the week of their pick-up day on the farm’s clock, the not collected, and the products', () => {
    const { insights, path, close } = seasonAt(migrationsFolder, { zone: 'Pacific/Auckland' })
    close()
    placeOrders(path, [
      // Monday 23 Nov on the farm's calendar: this week; Sunday 22 Nov: the week before.
      { name: 'Ana', date: '2026-11-23', lines: [{ product: 'eggs', quantity: 2, unit: 'dozen' }] },
      {
        name: 'Ben',
        date: '2026-11-22',
        status: 'not-collected',
        lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }],
      },
      { name: 'Cy', date: '2026-11-25', status: 'cancelled', lines: [{ product: 'eggs', quantity: 9, unit: 'dozen' }] },
      {
        name: 'Di',
        date: '2026-11-26',
        lines: [
          { product: 'honey', quantity: 3, unit: 'jar' },
          { product: 'eggs', quantity: 6, unit: '' },
        ],
      },
      { name: 'Ed', date: '2026-10-01', lines: [{ product: 'eggs', quantity: 5, unit: 'dozen' }] },
    ])
    const { orders, weeks } = insights.figures(4)
    expect(weeks).toBe(4)
    expect(orders.byWeek.map(({ orders, notCollected }) => [orders, notCollected])).toEqual([
      [0, 0],
      [0, 0],
      [1, 1],
      [2, 0],
    ])
    expect(orders.products).toEqual([
      { product: 'eggs', unit: '', quantity: 6 },
      { product: 'eggs', unit: 'dozen', quantity: 3 },
      { product: 'honey', unit: 'jar', quantity: 3 },
    ])
  })
})
