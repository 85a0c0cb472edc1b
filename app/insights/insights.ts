import { intents, type Intent } from '#app/analysis/analysis'
import { intentWords } from '#app/analysis/intent-words'
import { shortDate, shortDay } from '#app/clock/dates'

/** The ranges the owner may choose, in weeks: a month, a season, a year. */
export const insightRanges = [4, 12, 52] as const
export type InsightRange = (typeof insightRanges)[number]
export const defaultRange: InsightRange = 12

export type RangeReading = { ok: true; weeks: InsightRange } | { ok: false; error: string }

/** Reads `?weeks=`: absent is 12; anything but one of the offered ranges, spelled as offered, is refused. */
export function readRange(params: URLSearchParams): RangeReading {
  const given = params.getAll('weeks')
  if (given.length === 0) return { ok: true, weeks: defaultRange }
  const offered = insightRanges.find((weeks) => given.length === 1 && given[0] === String(weeks))
  return offered
    ? { ok: true, weeks: offered }
    : { ok: false, error: `The "weeks" parameter must be given once, as one of ${insightRanges.join(', ')}.` }
}

/** What a lead is counted under while it has no analysis yet. */
export const unread = 'unread'
/** The intents in the order the charts stack and list them. */
export const intentOrder = [...intents, unread] as const

export interface LeadWeek {
  /** Its Monday, 00:00 on the farm's clock (as every moment here, in ISO 8601 and UTC). */
  week: string
  total: number
  byIntent: Record<string, number>
  /** The inbox showing this week's leads, or null when none came. */
  inbox: string | null
}

export interface AnswerWeek {
  week: string
  /** Leads of this week answered so far, and the time to their first reply by nearest rank; `inbox` shows the week's leads. */
  answered: number
  medianMs: number | null
  p90Ms: number | null
  inbox: string | null
}

export interface Waiting {
  label: string
  count: number
  /** The inbox's new leads of that age; null when there are none. */
  inbox: string | null
}

export interface SubscriberWeek {
  week: string
  joined: number
  left: number
  bounced: number
}

export interface UpdateFigures {
  id: number
  subject: string
  sentAt: string
  recipients: number
  sent: number
  failed: number
  unsubscribed: number
  bounced: number
  complained: number
}

export interface OrderWeek {
  week: string
  /** Orders picked up in the week (by their pick-up day), cancelled ones left out; how many of them were not collected. */
  orders: number
  notCollected: number
}

/** The quantities of a product ordered in one unit, over the range ('eggs', 'dozen', 14). */
export interface ProductOrdered {
  product: string
  unit: string
  quantity: number
}

/** The insights page's figures, and the API's answer: the same object. */
export interface Insights {
  weeks: InsightRange
  /** The farm's clock (FARM_TIME_ZONE, else UTC), whose Mondays start the weeks. */
  timeZone: string
  /** When they were counted, and the first day counted (a Monday). */
  asOf: string
  since: string
  leads: {
    total: number
    intents: string[]
    byWeek: LeadWeek[]
    byIntent: Record<string, { count: number; inbox: string | null }>
  }
  /** The inbox's leads asking about it in the range; null when none did (only before). */
  products: Array<{ product: string; count: number; before: number; inbox: string | null }>
  answers: { byWeek: AnswerWeek[]; waiting: Waiting[] }
  subscribers: { now: number; byWeek: SubscriberWeek[] }
  /** Confirmed orders by their pick-up week; the products they hold, the most first. */
  orders: { byWeek: OrderWeek[]; products: ProductOrdered[] }
  /** Newest first, at most 10; `moreUpdates` when more were sent in the range. */
  updates: UpdateFigures[]
  moreUpdates: boolean
}

/** 'eggs: 41, up from 19', as the owner would say it. */
export function productChange({ product, count, before }: { product: string; count: number; before: number }): string {
  const change = count > before ? `up from ${before}` : count < before ? `down from ${before}` : 'the same as before'
  return `${product}: ${count}, ${change}`
}

/** A week's Monday on the farm's clock, short: '2 Nov'. */
export const weekLabel = (iso: string, zone: string) => shortDay(Date.parse(iso), zone)

/** A day in full, as the tables give it: '2 Nov 2026'. */
export const dayLabel = (iso: string, zone: string) => shortDate(Date.parse(iso), zone)

/** A wait as the owner reads it: '45 min', '5.5 h', '3.2 days'. */
export function waitWords(ms: number): string {
  const minutes = ms / 60_000
  if (minutes < 60) return `${Math.round(minutes)} min`
  const hours = minutes / 60
  if (hours < 48) return `${Number(hours.toFixed(1))} h`
  return `${Number((hours / 24).toFixed(1))} days`
}

/** An intent as the inbox's filters name it ('Product questions'). */
export function intentName(intent: string): string {
  return intentWords[intent as Intent]?.filter ?? 'Not read yet'
}
