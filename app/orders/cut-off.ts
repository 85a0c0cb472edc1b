import { momentAt } from '#app/clock/farm-clock'

const hourMs = 60 * 60 * 1000

/**
 * Until when a visitor may cancel an order picked up on `date` (YYYY-MM-DD, the farm's calendar):
 * `hoursBefore` hours before that day begins on the farm's clock (ORDER_CANCEL_HOURS; 6 is the day
 * before at 18:00), read on the wall clock, so a change of the clock between does not move it.
 */
export function cancelUntil(date: string, hoursBefore: number, zone: string): number {
  return momentAt(Date.parse(`${date}T00:00:00Z`) - hoursBefore * hourMs, zone)
}
