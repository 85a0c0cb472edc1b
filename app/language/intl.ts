import { longDate, longMonths, longWeekdays, timeOfDay, zoneWords } from '#app/clock/dates'
import type { Language } from './languages'

// Dates, times and prices in the page's language through Intl, on the farm's clock. English keeps
// the site's fixed words (clock/dates.ts): the spec's page reads the same on every browser.
const dayMs = 24 * 60 * 60 * 1000

/** Intl's name for a language: the pseudo-language is English's. */
const locale = (language: Language) => (language === 'en-XA' ? 'en' : language)
const english = (language: Language) => language === 'en'

/** A day of the farm's calendar (days since 1 January 1970) as a Date at its midnight, read in UTC. */
const dayDate = (dayNumber: number) => new Date(dayNumber * dayMs)

/** 'Saturday', 'samedi': a weekday by its number, 0 being Monday. */
export function weekdayName(language: Language, weekday: number): string {
  if (english(language)) return longWeekdays[weekday]!
  // 5 January 1970 was a Monday.
  return new Intl.DateTimeFormat(locale(language), { weekday: 'long', timeZone: 'UTC' }).format(dayDate(4 + weekday))
}

/** '14 June', '14 juin'; with its weekday first when asked: 'Sunday 14 June', 'dimanche 14 juin'. */
export function dayOfMonth(language: Language, dayNumber: number, { withWeekday = false } = {}): string {
  const date = dayDate(dayNumber)
  if (english(language)) {
    const words = `${date.getUTCDate()} ${longMonths[date.getUTCMonth()]}`
    return withWeekday ? `${longWeekdays[(((dayNumber + 3) % 7) + 7) % 7]} ${words}` : words
  }
  return new Intl.DateTimeFormat(locale(language), {
    ...(withWeekday ? { weekday: 'long' } : {}),
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(date)
}

/** '24–26 December', '24–26 décembre': days of the farm's calendar, both included. */
export function dayRange(language: Language, from: number, to: number): string {
  if (english(language)) {
    const sameMonth = dayDate(from).getUTCMonth() === dayDate(to).getUTCMonth()
    return sameMonth
      ? `${dayDate(from).getUTCDate()}–${dayOfMonth(language, to)}`
      : `${dayOfMonth(language, from)} – ${dayOfMonth(language, to)}`
  }
  const format = new Intl.DateTimeFormat(locale(language), { day: 'numeric', month: 'long', timeZone: 'UTC' })
  return format.formatRange(dayDate(from), dayDate(to))
}

/** A moment's day in full on the farm's clock: '26 November 2026', '26 novembre 2026'. */
export function fullDate(language: Language, ms: number, zone: string): string {
  if (english(language)) return longDate(ms, zone)
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'long', timeZone: zone }).format(ms)
}

/** An 'HH:MM' of the farm's clock as the language writes it: '9:00' in English, '09:00' in French. */
export function timeWords(language: Language, time: string): string {
  if (english(language)) return time.replace(/^0(?=\d)/, '')
  const minutes = Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))
  return new Intl.DateTimeFormat(locale(language), { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
    minutes * 60_000,
  )
}

/** Cents as a price in euros: '€4.50' in English as the site always wrote it, '4,50 €' in French. */
export function priceIn(language: Language, cents: number): string {
  if (english(language)) return `€${cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2)}`
  return new Intl.NumberFormat(locale(language), {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
  }).format(cents / 100)
}

/**
 * A moment to the minute on the farm's clock, with the clock said: '23 November 2026 at 09:30
 * London time', '23 novembre 2026 à 10:30 heure d’Europe centrale'.
 */
export function momentWords(language: Language, ms: number, zone: string): string {
  if (english(language)) return `${longDate(ms, zone)} at ${timeOfDay(ms, zone)} ${zoneWords(zone)}`
  return new Intl.DateTimeFormat(locale(language), {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: zone,
    timeZoneName: 'longGeneric',
  }).format(ms)
}
