import type { OrderLineRead } from '#app/analysis/analysis'
import type { OrderStatus } from '#app/data/enums'

/** A line of a confirmed order, priced from this week's list when it was confirmed. */
export interface OrderLine extends OrderLineRead {
  /** The line's price in cents; null when the list had no price for it. */
  priceCents: number | null
}

/** A confirmed order as the team's pages, the API and the webhook show it. */
export interface Order {
  id: number
  /** The lead it was read from. */
  leadId: number
  name: string
  email: string
  status: OrderStatus
  lines: OrderLine[]
  /** Null when a line has no price. */
  totalCents: number | null
  pickUp: { date: string; from: string | null; to: string | null }
  confirmedAt: string
  changedAt: string
}
