import type { Order } from '#app/leads/order'
import type { WeekProduct } from '#app/this-week/week'
import type { OrderAsked } from './order-form'
import type { PricedLine } from './order-pricing'

/** A drafted confirmation as the card shows it, to change and send. */
export interface OrderDraft {
  leadId: number
  lines: PricedLine[]
  totalCents: number | null
  pickUp: OrderAsked['pickUp']
  /** The farm's page says it is closed that day. */
  closed: boolean
  text: string
}

/** What the page's action answers a card's order form: the draft to send, or why not (the typed text kept). */
export interface OrderAnswer {
  id: number
  draft: OrderDraft | null
  error: string | null
}

/** What the cards need to show and work an order: the list to price from, the orders they have, and who may confirm. */
export interface Ordering {
  list: WeekProduct[]
  orders: Record<number, Order>
  /** The farm's today (YYYY-MM-DD): the first pick-up day. */
  today: string
  /** Why no one here may confirm or decline (the site open, no mail), or null. */
  cannotConfirm: string | null
  /** The page to ask to be told when a product is ready, for a decline's words; null while the farm takes no asks. */
  tellMeBase: string | null
  farmName: string
}
