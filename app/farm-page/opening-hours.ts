import { wallClock } from '#app/clock/farm-clock'
import { longMonths } from '#app/clock/dates'

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

export const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const
const dayMs = 24 * 60 * 60 * 1000
/** How far ahead the page looks for the next opening: past that, it says nothing. */
const daysLookedAhead = 366

export const noHours: OpeningHours = { week: [null, null, null, null, null, null, null], exceptions: [] }

/** Minutes since midnight of an 'HH:MM'. */
export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/** '09:00' as the page writes it: '9:00'. */
export const shownTime = (time: string) => time.replace(/^0(?=\d)/, '')

/** A 'YYYY-MM-DD' as a day of the farm's calendar, counted from 1 January 1970. */
export const dayNumberOf = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / dayMs)

/** 0 is Monday: 1 January 1970 was a Thursday. */
const weekdayOf = (dayNumber: number) => (((dayNumber + 3) % 7) + 7) % 7

export function dateWords(dayNumber: number, { withWeekday = true } = {}): string {
  const date = new Date(dayNumber * dayMs)
  const words = `${date.getUTCDate()} ${longMonths[date.getUTCMonth()]}`
  return withWeekday ? `${weekdayNames[weekdayOf(dayNumber)]} ${words}` : words
}

/** The hours of one day of the farm's calendar: an exception's, else its weekday's. */
export function hoursOn(hours: OpeningHours, dayNumber: number): OpenSpan | null {
  const exception = hours.exceptions.find(
    (each) => dayNumberOf(each.from) <= dayNumber && dayNumber <= dayNumberOf(each.to),
  )
  return exception ? exception.hours : (hours.week[weekdayOf(dayNumber)] ?? null)
}

function dayWords(ahead: number, dayNumber: number): string {
  if (ahead === 0) return 'today'
  if (ahead === 1) return 'tomorrow'
  return ahead < 7 ? weekdayNames[weekdayOf(dayNumber)]! : dateWords(dayNumber)
}

/**
 * What the page says of the farm's door at a moment: 'Open now until 18:00', 'Opens Saturday at
 * 9:00', or null when it opens on no day of the year ahead. Read on the farm's wall clock, so a
 * change of the clocks moves the hours with it.
 */
export function openingLine(hours: OpeningHours, now: number, zone: string): string | null {
  const { dayNumber, hour, minute } = wallClock(now, zone)
  const minuteNow = hour * 60 + minute
  const today = hoursOn(hours, dayNumber)
  if (today && minutesOf(today.opens) <= minuteNow && minuteNow < minutesOf(today.closes)) {
    return `Open now until ${shownTime(today.closes)}`
  }
  for (let ahead = 0; ahead <= daysLookedAhead; ahead++) {
    const span = hoursOn(hours, dayNumber + ahead)
    if (!span || (ahead === 0 && minutesOf(span.opens) <= minuteNow)) continue
    return `Opens ${dayWords(ahead, dayNumber + ahead)} at ${shownTime(span.opens)}`
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

/** 'Closed 24–26 December' or 'Open Sunday 14 June, 10:00–17:00', with the note after. */
export function exceptionWords(exception: HoursException): string {
  const from = dayNumberOf(exception.from)
  const to = dayNumberOf(exception.to)
  const sameMonth = exception.from.slice(0, 7) === exception.to.slice(0, 7)
  const days =
    from === to
      ? dateWords(from)
      : sameMonth
        ? `${new Date(from * dayMs).getUTCDate()}–${dateWords(to, { withWeekday: false })}`
        : `${dateWords(from, { withWeekday: false })} – ${dateWords(to, { withWeekday: false })}`
  const what = exception.hours
    ? `Open ${days}, ${shownTime(exception.hours.opens)}–${shownTime(exception.hours.closes)}`
    : `Closed ${days}`
  return exception.note ? `${what}: ${exception.note}` : what
}
