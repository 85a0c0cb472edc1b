/**
 * The farm's clock: a moment (ms since the epoch, as stored) read on the wall clock of the farm's
 * time zone (FARM_TIME_ZONE, an IANA name), and the days and weeks that clock cuts. The same on
 * the server and in every browser: only Intl's numbers are read, never its words, which differ
 * between ICU builds.
 */
export const utc = 'UTC'

const dayMs = 24 * 60 * 60 * 1000

export interface WallClock {
  year: number
  /** 1 to 12. */
  month: number
  day: number
  hour: number
  minute: number
  /** 0 is Monday, 6 Sunday. */
  weekday: number
  /** The day on the farm's calendar, counted from 1 January 1970. */
  dayNumber: number
}

// Made once a zone: each Intl.DateTimeFormat holds ICU data off V8's heap (see when-arrived).
const numberFormats = new Map<string, Intl.DateTimeFormat>()

function numbersIn(zone: string): Intl.DateTimeFormat {
  let format = numberFormats.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    numberFormats.set(zone, format)
  }
  return format
}

/** The wall clock's reading, as if it were UTC: ms since 1970 on the farm's calendar. */
function wallMs(ms: number, zone: string): number {
  if (zone === utc) return ms
  const parts: Record<string, number> = {}
  for (const { type, value } of numbersIn(zone).formatToParts(ms)) parts[type] = Number(value)
  // Some engines write midnight as 24 even in h23.
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!)
  return wall + (ms - Math.floor(ms / 1000) * 1000)
}

/** How far the farm's clock is ahead of UTC at a moment, in ms (behind: negative). */
export function offsetAt(ms: number, zone: string): number {
  return wallMs(ms, zone) - ms
}

/**
 * A moment as the farm's clock reads it, as a Date whose UTC fields (getUTCDate, getUTCHours…)
 * are the wall clock's: for code that counts days on the farm's calendar with Date's own sums.
 */
export const wallTime = (ms: number, zone: string) => new Date(wallMs(ms, zone))

/** A moment as the farm's clock reads it. */
export function wallClock(ms: number, zone: string): WallClock {
  const wall = new Date(wallMs(ms, zone))
  const dayNumber = Math.floor(wall.getTime() / dayMs)
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    weekday: (wall.getUTCDay() + 6) % 7,
    dayNumber,
  }
}

/**
 * The first moment the farm's clock reads `wall` (a reading as if UTC, as wallTime gives). It is
 * read with the offsets of the day before and the day after (a clock change falls between them),
 * and the earliest wins (a clock set back reads it twice); a reading the clock skips, set forward,
 * is the first moment after the gap: the clock's jump, found between the two offsets' moments.
 */
export function momentAt(wall: number, zone: string): number {
  const offsets = [offsetAt(wall - dayMs, zone), offsetAt(wall + dayMs, zone)]
  const moments = offsets.map((offset) => wall - offset)
  const readings = moments.filter((ms) => wallMs(ms, zone) === wall)
  if (readings.length > 0) return Math.min(...readings)
  // Before the jump the clock reads earlier than `wall`, from it on later.
  let [before, after] = [Math.min(...moments), Math.max(...moments)]
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2)
    if (wallMs(middle, zone) < wall) before = middle
    else after = middle
  }
  return after
}

/** The first moment of a day on the farm's calendar (its midnight, or when the clock skips it, its first). */
export const dayStart = (dayNumber: number, zone: string) => momentAt(dayNumber * dayMs, zone)

/** The Monday, 00:00 on the farm's clock, of the week a moment is in. */
export function weekOf(ms: number, zone: string): number {
  const { dayNumber, weekday } = wallClock(ms, zone)
  return dayStart(dayNumber - weekday, zone)
}

/** 29 December 1969 and 1 January 2200, as days from 1970: the farm's weeks the site keeps. */
const firstMonday = -3
const lastDay = 84_006

/** Every Monday, 00:00 on the farm's clock, from the one before 1970 to 2200. */
export function farmMondays(zone: string): number[] {
  const mondays: number[] = []
  for (let day = firstMonday; day < lastDay; day += 7) mondays.push(dayStart(day, zone))
  return mondays
}
