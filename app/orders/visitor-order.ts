import type { Order } from '#app/leads/order'

/** An order as its visitor sees it by its link: no address, no one of the team. */
export interface VisitorOrder extends Pick<Order, 'name' | 'status' | 'lines' | 'totalCents' | 'pickUp'> {
  /** Until when it may be cancelled by its link (ms); `mayCancel` while that is ahead and it is confirmed. */
  cancelUntil: number
  mayCancel: boolean
}

/** Where to find the farm, as its page says (each '' until the owner writes it). */
export interface FarmPlace {
  address: string
  directions: string
  phone: string
}
