import { shortDate, shortDay, shortTime, timeOfDay, weekdayName } from '#app/clock/dates'
import { wallClock } from '#app/clock/farm-clock'

const minuteMs = 60_000

/** When something came, on the farm's clock, the same on the server and in every browser: "22 Nov 2026, 14:05". */
export const absoluteTime = (iso: string, zone: string) => shortTime(Date.parse(iso), zone)

/** How long ago, on the farm's clock: "just now", "5 min ago", "today 14:05", "yesterday 14:05", "Mon 09:30", "3 Nov, 14:05". */
export function relativeArrival(iso: string, now: Date, zone: string): string {
  const at = Date.parse(iso)
  const ago = now.getTime() - at
  if (ago < minuteMs) return 'just now'
  if (ago < 60 * minuteMs) return `${Math.floor(ago / minuteMs)} min ago`
  const time = timeOfDay(at, zone)
  const [then, today] = [wallClock(at, zone), wallClock(now.getTime(), zone)]
  if (then.dayNumber === today.dayNumber) return `today ${time}`
  if (then.dayNumber === today.dayNumber - 1) return `yesterday ${time}`
  if (ago < 6 * 24 * 60 * minuteMs) return `${weekdayName(at, zone)} ${time}`
  return `${then.year === today.year ? shortDay(at, zone) : shortDate(at, zone)}, ${time}`
}
