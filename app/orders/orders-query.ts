import { isSubmissionId } from '#app/leads/lead'

/** The API's pages of orders: 100 at a time unless asked, at most 500; a range of at most a year of pick-up days. */
export const orderPages = { default: 100, most: 500, longestDays: 366 } as const

export interface OrdersPage {
  from: string
  to: string
  after: number
  limit: number
}

export type OrdersQuery = { ok: true; page: OrdersPage } | { ok: false; error: string }

const dayMs = 24 * 60 * 60 * 1000

/** A day on the calendar as the orders keep it ('2026-11-28'), from its number of days since 1970. */
export const dayOf = (dayNumber: number) => new Date(dayNumber * dayMs).toISOString().slice(0, 10)

/** A day of the calendar as `YYYY-MM-DD`, a real one (no 30 February), as days from 1970; else null. */
function dayNumberOf(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null
  const ms = Date.parse(`${text}T00:00:00Z`)
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text ? null : ms / dayMs
}

/**
 * Reads `GET /api/orders`' parameters: `from` and `to` (pick-up days, `YYYY-MM-DD`, both included;
 * from today on the farm's calendar, to a week after `from`), `after` (an order id) and `limit`.
 * Each at most once.
 */
export function readOrdersQuery(params: URLSearchParams, today: string): OrdersQuery {
  const given: Record<string, string> = {}
  for (const name of ['from', 'to', 'after', 'limit']) {
    const values = params.getAll(name)
    if (values.length > 1) return { ok: false, error: `The "${name}" parameter may be given only once.` }
    if (values.length === 1) given[name] = values[0]!
  }
  const from = dayNumberOf(given.from ?? today)
  if (from === null) return { ok: false, error: 'The "from" parameter must be a day written YYYY-MM-DD.' }
  const to = given.to === undefined ? from + 6 : dayNumberOf(given.to)
  if (to === null) return { ok: false, error: 'The "to" parameter must be a day written YYYY-MM-DD.' }
  if (to < from) return { ok: false, error: 'The "to" day must not be before the "from" day.' }
  if (to - from >= orderPages.longestDays) {
    return { ok: false, error: `Ask for at most ${orderPages.longestDays} days at once.` }
  }
  if (given.after !== undefined && !isSubmissionId(given.after)) {
    return { ok: false, error: 'The "after" parameter must be an order id.' }
  }
  const limit = given.limit === undefined ? orderPages.default : Number(given.limit)
  if ((given.limit !== undefined && !/^\d{1,3}$/.test(given.limit)) || limit < 1 || limit > orderPages.most) {
    return { ok: false, error: `The "limit" parameter must be a whole number from 1 to ${orderPages.most}.` }
  }
  return { ok: true, page: { from: dayOf(from), to: dayOf(to), after: Number(given.after ?? 0), limit } }
}
