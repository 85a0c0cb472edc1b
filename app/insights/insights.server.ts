import { sql } from 'drizzle-orm'
import type { Intent } from '#app/analysis/analysis'
import type { FarmDatabase } from '#app/data/database.server'
import { viewParams, type InboxView } from '#app/inbox/inbox-query'
import type { UpdateReport } from '#app/updates/update'
import { wallClock } from '#app/clock/farm-clock'
import { dayOf } from '#app/orders/orders-query'
import { weekSql } from './farm-weeks.server'
import { intentOrder, unread, type InsightRange, type Insights, type LeadWeek, type SubscriberWeek } from './insights'

const dayMs = 24 * 60 * 60 * 1000
/** The most products compared, the most asked first; and the most updates listed, newest first. */
const mostProducts = 20
const mostUpdates = 10

type Filters = Omit<InboxView, 'spam'>

/** The inbox (`/farm-sales`) showing the leads of a view, between two ids (ids only grow with time). */
function inboxLink(filters: Filters, from?: number | null, until?: number | null): string {
  const params = viewParams({ ...filters, spam: false })
  if (from != null && from > 1) params.set('after', String(from - 1))
  if (until != null) params.set('before', String(until))
  const query = params.toString()
  return query ? `/farm-sales?${query}` : '/farm-sales'
}

/**
 * The last `count` of the farm's weeks up to a moment, oldest first, and the Monday after them:
 * read from the weeks the triggers count by, so the figures' weeks are theirs.
 */
function weeksUpTo(db: FarmDatabase, at: number, count: number) {
  const weeks = db
    .all<{ week: number }>(sql`SELECT week FROM farm_weeks WHERE week <= ${at} ORDER BY week DESC LIMIT ${count}`)
    .map((row) => row.week)
    .reverse()
  const next = db.get<{ week: number | null }>(sql`SELECT min(week) AS week FROM farm_weeks WHERE week > ${at}`)
  return { weeks, next: next.week }
}

/** A week's leads are those from its first id to the next week's first id: a link to them in the inbox. */
function weekLinks(db: FarmDatabase, weeks: number[], next: number | null) {
  const firstIds = db.all<{ week: number; firstId: number }>(
    sql`SELECT week, first_id AS firstId FROM lead_weeks WHERE week >= ${weeks[0]!} ORDER BY week`,
  )
  const firstIdOf = (week: number | null) =>
    week === null ? null : (firstIds.find((row) => row.week >= week)?.firstId ?? null)
  const ends = [...weeks.slice(1), next]
  return {
    week: (filters: Filters, index: number) =>
      inboxLink(filters, firstIdOf(weeks[index]!), firstIdOf(ends[index] ?? null)),
    since: (filters: Filters) => inboxLink(filters, firstIdOf(weeks[0]!)),
  }
}

/**
 * Orders by the week of their pick-up day (a Monday's day on the farm's calendar to the next's),
 * and what they held: the range's few hundred orders, read by the pick-up index.
 */
function ordersOf(db: FarmDatabase, zone: string, weeks: number[], next: number | null) {
  const firstDays = weeks.map((week) => dayOf(wallClock(week, zone).dayNumber))
  const end = next === null ? '9999-12-31' : dayOf(wallClock(next, zone).dayNumber)
  const counts = db.all<{ date: string; n: number; notCollected: number }>(
    sql`SELECT pick_up_date AS date, count(*) AS n, sum(status = 'not-collected') AS notCollected FROM orders
        WHERE pick_up_date >= ${firstDays[0]!} AND pick_up_date < ${end} AND status != 'cancelled' GROUP BY 1`,
  )
  const weekIndexOf = (date: string) => firstDays.filter((first) => first <= date).length - 1
  const byWeek = weeks.map((week) => ({ week: new Date(week).toISOString(), orders: 0, notCollected: 0 }))
  for (const { date, n, notCollected } of counts) {
    const row = byWeek[weekIndexOf(date)]!
    row.orders += n
    row.notCollected += notCollected
  }
  const products = db.all<{ product: string; unit: string; quantity: number }>(
    sql`SELECT l.product AS product, l.unit AS unit, sum(l.quantity) AS quantity FROM orders o
        JOIN order_lines l ON l.order_id = o.id
        WHERE o.pick_up_date >= ${firstDays[0]!} AND o.pick_up_date < ${end} AND o.status != 'cancelled'
        GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT ${mostProducts}`,
  )
  return { byWeek, products }
}

/**
 * The season at a glance: leads per week by intent, products against the period before, how fast
 * leads are answered and how many wait, and the updates' subscribers and reports. Every figure is
 * read from counts kept as leads are written (drizzle/0024) or from an index over the range asked:
 * the cost follows the weeks shown, not the years of leads kept (decision 031).
 */
export function createInsights({
  db,
  now = Date.now,
  timeZone,
  updateReports,
}: {
  db: FarmDatabase
  now?: () => number
  /** The farm's clock, whose Mondays the weeks (kept by `keepWeeksOn`) start on. */
  timeZone: () => string
  /** The updates sent since a moment, newest first, at most `most`. */
  updateReports: (since: Date, most: number) => UpdateReport[]
}) {
  function leadsAndProducts(weeks: number[], previousFrom: number, links: ReturnType<typeof weekLinks>) {
    const first = weeks[0]!
    const rows = db.all<{ week: number; kind: 'intent' | 'product'; value: string; count: number }>(
      sql`SELECT week, kind, value, count FROM weekly_leads
          WHERE week >= ${previousFrom} AND week <= ${weeks.at(-1)!} AND kind IN ('intent', 'product') AND count > 0`,
    )
    const intentsByWeek = new Map<number, Record<string, number>>()
    for (const row of rows) {
      if (row.kind !== 'intent') continue
      const byIntent = intentsByWeek.get(row.week) ?? {}
      byIntent[row.value] = row.count
      intentsByWeek.set(row.week, byIntent)
    }
    const byWeek: LeadWeek[] = weeks.map((week, index) => {
      const byIntent = intentsByWeek.get(week) ?? {}
      const total = Object.values(byIntent).reduce((sum, n) => sum + n, 0)
      return { week: new Date(week).toISOString(), total, byIntent, inbox: total > 0 ? links.week({}, index) : null }
    })
    const intentTotals: Insights['leads']['byIntent'] = {}
    for (const intent of intentOrder) {
      const count = byWeek.reduce((sum, week) => sum + (week.byIntent[intent] ?? 0), 0)
      if (count > 0)
        intentTotals[intent] = { count, inbox: intent === unread ? null : links.since({ intent: intent as Intent }) }
    }
    const products = new Map<string, { count: number; before: number }>()
    for (const row of rows) {
      if (row.kind !== 'product') continue
      const tally = products.get(row.value) ?? { count: 0, before: 0 }
      if (row.week >= first) tally.count += row.count
      else tally.before += row.count
      products.set(row.value, tally)
    }
    return {
      leads: {
        total: byWeek.reduce((sum, week) => sum + week.total, 0),
        intents: Object.keys(intentTotals),
        byWeek,
        byIntent: intentTotals,
      },
      products: [...products.entries()]
        .map(([product, tally]) => ({ product, ...tally, inbox: tally.count > 0 ? links.since({ product }) : null }))
        .sort((a, b) => b.count - a.count || b.before - a.before || a.product.localeCompare(b.product))
        .slice(0, mostProducts),
    }
  }

  /**
   * The median and 90th percentile of a week's waits, by nearest rank: the smallest wait that at
   * least half (9 in 10) of its answered leads waited no longer than. Read in order from the index,
   * the 90th percentile walking on from the median, so a week costs 0.9 of its answered leads.
   */
  function waitsOf(week: number, answered: number) {
    const rank = (share: number) => Math.max(1, Math.ceil(share * answered))
    const median = db.get<{ waited: number; id: number } | undefined>(
      sql`SELECT waited_ms AS waited, submission_id AS id FROM first_replies WHERE week = ${week}
          ORDER BY waited_ms, submission_id LIMIT 1 OFFSET ${rank(0.5) - 1}`,
    )
    const further = rank(0.9) - rank(0.5)
    const p90 =
      further === 0 || !median
        ? median
        : db.get<{ waited: number } | undefined>(
            sql`SELECT waited_ms AS waited FROM first_replies WHERE week = ${week}
                AND (waited_ms, submission_id) > (${median.waited}, ${median.id})
                ORDER BY waited_ms, submission_id LIMIT 1 OFFSET ${further - 1}`,
          )
    // Only a file changed by hand could hold fewer answers than its count: then there is nothing to say.
    return { medianMs: median?.waited ?? null, p90Ms: p90?.waited ?? null }
  }

  /** `leadWeeks`: the range's weeks of leads, whose links to the inbox these share. */
  function answers(weeks: number[], at: number, leadWeeks: LeadWeek[]) {
    const answered = new Map(
      db
        .all<{ week: number; n: number }>(
          sql`SELECT week, count AS n FROM weekly_leads WHERE week >= ${weeks[0]!} AND kind = 'answered' AND value = '' AND count > 0`,
        )
        .map(({ week, n }) => [week, n]),
    )
    const waitingAll =
      db.get<{ n: number } | undefined>(sql`SELECT count AS n FROM tag_counts WHERE kind = 'status' AND value = 'new'`)
        ?.n ?? 0
    // The last three days' new leads, read once from the newest back: how many, and where each age starts.
    const recent = db.get<{ n3: number; n1: number | null; first3: number | null; first1: number | null }>(
      sql`SELECT count(*) AS n3, sum(created_at >= ${at - dayMs}) AS n1, min(id) AS first3,
            min(CASE WHEN created_at >= ${at - dayMs} THEN id END) AS first1
          FROM submissions WHERE status = 'new' AND spam_reasons IS NULL AND created_at >= ${at - 3 * dayMs}`,
    )
    const day = { n: recent.n1 ?? 0, firstId: recent.first1 }
    const threeDays = { n: recent.n3, firstId: recent.first3 }
    return {
      byWeek: weeks.map((week, index) => {
        const n = answered.get(week) ?? 0
        return {
          week: new Date(week).toISOString(),
          answered: n,
          ...(n > 0 ? waitsOf(week, n) : { medianMs: null, p90Ms: null }),
          inbox: n > 0 ? leadWeeks[index]!.inbox : null,
        }
      }),
      waiting: [
        { label: 'Under a day', count: day.n, from: day.firstId, until: null },
        { label: '1 to 3 days', count: threeDays.n - day.n, from: threeDays.firstId, until: day.firstId },
        {
          label: 'More than 3 days',
          count: Math.max(0, waitingAll - threeDays.n),
          from: null,
          until: threeDays.firstId,
        },
      ].map(({ label, count, from, until }) => ({
        label,
        count,
        // A bound that is not there (no lead that new) would open the inbox from its start: no link then.
        inbox: count > 0 ? inboxLink({ status: 'new' }, from, until) : null,
      })),
    }
  }

  function subscribers(weeks: number[]) {
    const first = weeks[0]!
    const byWeek = new Map<number, SubscriberWeek>(
      weeks.map((week) => [week, { week: new Date(week).toISOString(), joined: 0, left: 0, bounced: 0 }]),
    )
    for (const { week, n } of db.all<{ week: number; n: number }>(
      sql`SELECT ${weekSql('subscribed_at')} AS week, count(*) AS n FROM subscribers
          WHERE subscribed_at IS NOT NULL AND subscribed_at >= ${first} GROUP BY 1`,
    )) {
      const row = byWeek.get(week)
      if (row) row.joined = n
    }
    for (const { status, week, n } of db.all<{ status: string; week: number; n: number }>(
      sql`SELECT status, ${weekSql('unsubscribed_at')} AS week, count(*) AS n FROM subscribers
          WHERE unsubscribed_at IS NOT NULL AND status IN ('unsubscribed', 'undeliverable') AND unsubscribed_at >= ${first}
          GROUP BY 1, 2`,
    )) {
      const row = byWeek.get(week)
      if (row) row[status === 'unsubscribed' ? 'left' : 'bounced'] = n
    }
    return {
      now: db.get<{ n: number }>(sql`SELECT count(*) AS n FROM subscribers WHERE status = 'subscribed'`).n,
      byWeek: [...byWeek.values()],
    }
  }

  return {
    /** The figures of the last `range` weeks, this one (so far) the last. */
    figures(range: InsightRange): Insights {
      const at = now()
      // These weeks and as many before, which the products are compared with.
      const { weeks: both, next } = weeksUpTo(db, at, 2 * range)
      const weeks = both.slice(-range)
      const since = weeks[0]!
      const links = weekLinks(db, weeks, next)
      const { leads, products } = leadsAndProducts(weeks, both[0]!, links)
      const updates = updateReports(new Date(since), mostUpdates + 1)
      return {
        weeks: range,
        timeZone: timeZone(),
        asOf: new Date(at).toISOString(),
        since: new Date(since).toISOString(),
        leads,
        products,
        answers: answers(weeks, at, leads.byWeek),
        subscribers: subscribers(weeks),
        orders: ordersOf(db, timeZone(), weeks, next),
        moreUpdates: updates.length > mostUpdates,
        updates: updates.slice(0, mostUpdates).map((report) => ({
          id: report.id,
          subject: report.subject,
          sentAt: report.createdAt,
          recipients: report.recipients,
          sent: report.sent,
          failed: report.failed,
          unsubscribed: report.unsubscribedSince,
          bounced: report.bounced,
          complained: report.complained,
        })),
      }
    },
  }
}

export type InsightsService = ReturnType<typeof createInsights>
