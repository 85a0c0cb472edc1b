import type { Messages } from '#app/language/compiled/messages'
import { dayOfMonth, dayRange, timeWords, weekdayName } from '#app/language/intl'
import type { Language } from '#app/language/languages'
import { dayNumberOf, type HoursException, type NextOpening } from './opening-hours'

/** The opening line in the page's language: 'Open now until 18:00', 'Ouvre samedi à 09:00'. */
export function openingLineIn(messages: Messages, language: Language, next: NextOpening | null): string | null {
  if (!next) return null
  if (next.open) return messages.openNowUntil({ time: timeWords(language, next.closes) })
  const time = timeWords(language, next.opens)
  if (next.ahead === 0) return messages.opensToday({ time })
  if (next.ahead === 1) return messages.opensTomorrow({ time })
  const day =
    next.ahead < 7 ? weekdayName(language, next.weekday) : dayOfMonth(language, next.dayNumber, { withWeekday: true })
  return messages.opensOn({ day, time })
}

/** 'Closed 24–26 December' or 'Open Sunday 14 June, 10:00–17:00', with the note after, in the page's language. */
export function exceptionWordsIn(messages: Messages, language: Language, exception: HoursException): string {
  const from = dayNumberOf(exception.from)
  const to = dayNumberOf(exception.to)
  const days = from === to ? dayOfMonth(language, from, { withWeekday: true }) : dayRange(language, from, to)
  const what = exception.hours
    ? messages.openOnDays({ days, hours: hoursWords(language, exception.hours) })
    : messages.closedOnDays({ days })
  return exception.note ? messages.withNote({ what, note: exception.note }) : what
}

/** '10:00–17:00' as the language writes times. */
export const hoursWords = (language: Language, span: { opens: string; closes: string }) =>
  `${timeWords(language, span.opens)}–${timeWords(language, span.closes)}`
