import { wallClock } from '#app/clock/farm-clock'

/** Opening and closing on the farm's clock, 'HH:MM' (24 hours); closing is later the same day. */
export interface OpenSpan {
  opens: string
  closes: string
}

/** Days that differ from the week: closed from one date to another, or open on them with their own hours. */
export interface HoursException {
  /** 'YYYY-MM-DD' on the farm's calendar, both days included. */
  from: string
  to: string
  /** Null: closed on those days. */
  hours: OpenSpan | null
  /** What the visitor reads about it ('strawberry day'). */
  note: string
}

export interface OpeningHours {
  /** Monday first; null: closed that day. */
  week: Array<OpenSpan | null>
  exceptions: HoursException[]
}

const dayMs = 24 * 60 * 60 * 1000
/** How far ahead the page looks for the next opening: past that, it says nothing. */
const daysLookedAhead = 366

export const noHours: OpeningHours = { week: [null, null, null, null, null, null, null], exceptions: [] }

/** Minutes since midnight of an 'HH:MM'. */
export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/** A 'YYYY-MM-DD' as a day of the farm's calendar, counted from 1 January 1970. */
export const dayNumberOf = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / dayMs)

/** 0 is Monday: 1 January 1970 was a Thursday. */
const weekdayOf = (dayNumber: number) => (((dayNumber + 3) % 7) + 7) % 7

/** The hours of one day of the farm's calendar: an exception's, else its weekday's. */
export function hoursOn(hours: OpeningHours, dayNumber: number): OpenSpan | null {
  const exception = hours.exceptions.find(
    (each) => dayNumberOf(each.from) <= dayNumber && dayNumber <= dayNumberOf(each.to),
  )
  return exception ? exception.hours : (hours.week[weekdayOf(dayNumber)] ?? null)
}

/** When the farm's door is next open, as a page says it in any language; null when on no day of the year ahead. */
export type NextOpening =
  { open: true; closes: string } | { open: false; opens: string; ahead: number; dayNumber: number; weekday: number }

/** Read on the farm's wall clock, so a change of the clocks moves the hours with it. */
export function nextOpening(hours: OpeningHours, now: number, zone: string): NextOpening | null {
  const { dayNumber, hour, minute } = wallClock(now, zone)
  const minuteNow = hour * 60 + minute
  const today = hoursOn(hours, dayNumber)
  if (today && minutesOf(today.opens) <= minuteNow && minuteNow < minutesOf(today.closes)) {
    return { open: true, closes: today.closes }
  }
  for (let ahead = 0; ahead <= daysLookedAhead; ahead++) {
    const span = hoursOn(hours, dayNumber + ahead)
    if (!span || (ahead === 0 && minutesOf(span.opens) <= minuteNow)) continue
    return {
      open: false,
      opens: span.opens,
      ahead,
      dayNumber: dayNumber + ahead,
      weekday: weekdayOf(dayNumber + ahead),
    }
  }
  return null
}

/** The exceptions still to come (or under way) on the farm's calendar, soonest first. */
export function exceptionsAhead(hours: OpeningHours, now: number, zone: string): HoursException[] {
  const today = wallClock(now, zone).dayNumber
  return hours.exceptions
    .filter((each) => dayNumberOf(each.to) >= today)
    .sort((a, b) => dayNumberOf(a.from) - dayNumberOf(b.from))
}
