import { utc, wallClock } from './farm-clock'

/**
 * Dates and times as the owner's pages and mails write them, on the farm's clock (`zone`). The
 * words are fixed here: a browser's and a server's Intl data may spell September 'Sep' or 'Sept',
 * and a page the server wrote must read the same once the browser has taken it over.
 */
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
export const longMonths = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
export const longWeekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const
const weekdays = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

const twoDigits = (n: number) => String(n).padStart(2, '0')

/** A day and month, as a chart's axis shows them: '26 Nov'. */
export function shortDay(ms: number, zone: string): string {
  const at = wallClock(ms, zone)
  return `${at.day} ${months[at.month - 1]}`
}

/** A day as the owner's pages show it: '26 Nov 2026'. */
export function shortDate(ms: number, zone: string): string {
  return `${shortDay(ms, zone)} ${wallClock(ms, zone).year}`
}

/** A day in full words, as a letter dates it: '26 November 2026'. */
export function longDate(ms: number, zone: string): string {
  const at = wallClock(ms, zone)
  return `${at.day} ${longMonths[at.month - 1]} ${at.year}`
}

/** The time of day: '14:05'. */
export function timeOfDay(ms: number, zone: string): string {
  const at = wallClock(ms, zone)
  return `${twoDigits(at.hour)}:${twoDigits(at.minute)}`
}

/** A moment, to the minute: '26 Nov 2026, 14:05'. */
export function shortTime(ms: number, zone: string): string {
  return `${shortDate(ms, zone)}, ${timeOfDay(ms, zone)}`
}

/** A moment as a spreadsheet reads one and sorts it: '2026-11-26 14:05'; its first ten characters are the day. */
export function sortableTime(ms: number, zone: string): string {
  const at = wallClock(ms, zone)
  return `${at.year}-${twoDigits(at.month)}-${twoDigits(at.day)} ${twoDigits(at.hour)}:${twoDigits(at.minute)}`
}

/** A day of the week, short: 'Mon'. */
export function weekdayName(ms: number, zone: string): string {
  return weekdays[wallClock(ms, zone).weekday]!
}

/**
 * Which clock the times are on, in words: 'UTC', or the zone's place: 'Auckland time',
 * 'Buenos Aires time'. A place rather than 'NZDT': Intl's abbreviations differ by language and
 * ICU build ('GMT+13' in en-GB, 'NZDT' in en-NZ).
 */
export function zoneWords(zone: string): string {
  if (zone === utc || zone === 'Etc/UTC') return utc
  return `${zone.slice(zone.lastIndexOf('/') + 1).replaceAll('_', ' ')} time`
}

/** A moment with its clock, where a sentence stands alone: '26 Nov 2026, 14:05 Auckland time'. */
export function shortTimeAndZone(ms: number, zone: string): string {
  return `${shortTime(ms, zone)} ${zoneWords(zone)}`
}
