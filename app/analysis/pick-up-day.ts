import { createRequire } from 'node:module'
import type { Chrono, ParsedComponents, ParsedResult } from 'chrono-node'
import type { PickUpWhen } from './analysis'
import { oneEditApart } from './order-words'

/** An opening span on the farm's clock, 'HH:MM'. */
interface FarmSpan {
  opens: string
  closes: string
}

/**
 * The farm's opening hours as plain data (the farm's page keeps them; the analysis may not read
 * that page): the week, Monday first, and the days that differ, 'YYYY-MM-DD' both included.
 */
export interface FarmHours {
  week: Array<FarmSpan | null>
  exceptions: Array<{ from: string; to: string; hours: FarmSpan | null }>
}

const dayMs = 24 * 60 * 60 * 1000
/** A pick-up is within the year ahead: 'in 10000 weeks' or '31/12/9999' is no day to collect on. */
const daysAhead = 366

/** Parts of the day, as far as the farm's hours allow, and where its hours are not known. */
const partsOfTheDay = {
  morning: { within: { opens: '00:00', closes: '12:00' }, unknown: { opens: '09:00', closes: '12:00' } },
  lunchtime: { within: { opens: '12:00', closes: '14:00' }, unknown: { opens: '12:00', closes: '14:00' } },
  afternoon: { within: { opens: '12:00', closes: '24:00' }, unknown: { opens: '12:00', closes: '17:00' } },
  evening: { within: { opens: '17:00', closes: '24:00' }, unknown: { opens: '17:00', closes: '20:00' } },
}
type PartOfTheDay = keyof typeof partsOfTheDay

const partWords: Array<[RegExp, PartOfTheDay]> = [
  [
    /\b(morning|am|a\.m\.|por la manana|matin|matinee|vormittag|morgens|mattina|mattinata|manha|ochtend|first thing)\b/,
    'morning',
  ],
  [/\b(lunch|lunchtime|midday|noon|midi|mittag|mediodia|mezzogiorno)\b/, 'lunchtime'],
  [/\b(afternoon|pm|p\.m\.|apres midi|tarde|nachmittag|nachmittags|pomeriggio|middag)\b/, 'afternoon'],
  [/\b(evening|eve|tonight|soir|soiree|noche|abend|abends|sera|avond|noite|after work)\b/, 'evening'],
]

type ChronoLanguage = 'en' | 'fr' | 'es' | 'de' | 'it' | 'pt' | 'nl'

// Each of chrono's languages is read on its first use, on its own: its index loads all sixteen it
// knows, 18 MB in the reading worker before a farm has had a single message.
const load = createRequire(import.meta.url)
const parsers = new Map<ChronoLanguage, Chrono>()
function parserIn(language: ChronoLanguage): Chrono {
  let parser = parsers.get(language)
  if (!parser) {
    parser = (load(`chrono-node/${language}`) as { casual: Chrono }).casual
    parsers.set(language, parser)
  }
  return parser
}

/** The languages of the products' other names, each with words that tell it is the one written. */
const languages: Array<[ChronoLanguage, RegExp]> = [
  ['fr', /\b(je|nous|voudrais|des|pour|merci|bonjour|samedi|dimanche|demain)\b/g],
  ['es', /\b(quiero|quisiera|para|gracias|hola|sabado|domingo|manana|por favor)\b/g],
  ['de', /\b(ich|wir|mochte|bitte|danke|und|fur|samstag|sonntag|morgen)\b/g],
  ['it', /\b(vorrei|grazie|ciao|per|sabato|domenica|domani)\b/g],
  ['pt', /\b(queria|gostaria|obrigad[oa]|ola|para|sabado|domingo|amanha)\b/g],
  ['nl', /\b(ik|graag|bedankt|voor|zaterdag|zondag|morgen|wil)\b/g],
]

/** Chrono's finds that are not days: 'a second jar', 'sun-dried', 'the end of the week'. */
const notADay = /^(a second|second|sun|the week|week|now|a minute|min|next week|this week)$/i

/**
 * When they want it, on the farm's clock: the first day ahead they name, and the hours of a time
 * or part of the day they give, snapped to the farm's opening hours when they are known.
 */
export function readPickUpDay(message: string, now: Date, hours: FarmHours | null): PickUpWhen | null {
  const text = spelledOut(message.replace(/[’‘]/g, "'"))
  const today = Math.floor(now.getTime() / dayMs)
  const known = hours && hasHours(hours) ? hours : null
  const found = chronoDay(text, now, today) ?? dayOfTheMonth(text, today) ?? nextWeek(text, today, known)
  if (!found) return null
  const folded = fold(text.slice(found.index, found.index + found.text.length + 40))
  const [pattern, part] = partWords.find(([words]) => words.test(folded)) ?? []
  const span = known ? hoursOn(known, found.day) : null
  const time = found.from ? { from: found.from, to: found.to } : part ? partSpan(part, span) : { from: null, to: null }
  const said = pattern?.exec(folded)?.[0]
  const words = said && !found.from && !pattern?.test(fold(found.text)) ? `${found.text} ${said}` : found.text
  return { date: dateOf(found.day), ...time, words: words.slice(0, 60) }
}

const dayNames = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'tomorrow']

/** 'tmrw', 'satuday': the days as chrono reads them. */
function spelledOut(text: string): string {
  return text
    .replace(/\b(tmrw|tmr|tmw|tmoz|tomoz|2moro|2morrow)\b/gi, 'tomorrow')
    .replace(/\b(\d{1,2}) ?ish\b/gi, 'at $1:00')
    .replace(/\b[a-z]{5,10}\b/gi, (word) => {
      const lower = word.toLowerCase()
      return dayNames.find((day) => day !== lower && day[0] === lower[0] && oneEditApart(lower, day)) ?? word
    })
}

interface FoundDay {
  day: number
  from: string | null
  to: string | null
  text: string
  index: number
}

type ScoredDay = FoundDay & { score: number }

function chronoDay(text: string, now: Date, today: number): FoundDay | null {
  const reference = { instant: now, timezone: 0 }
  for (const language of ['en' as const, ...spokenLanguages(text)]) {
    const days = parserIn(language)
      .parse(text, reference, { forwardDate: true })
      .flatMap((result) => dayOf(result, text, today) ?? [])
    // 'A BBQ on Saturday… could I order for Friday': the day they collect on, else the one it is for.
    const best = days.reduce<ScoredDay | null>((kept, day) => (!kept || day.score > kept.score ? day : kept), null)
    if (best) return best
  }
  return null
}

const pickUpWords =
  /\b(collect|collecting|collection|pick ?up|picking up|come|coming|pop in|call in|abholen|ritirare|recoger|ophalen|chercher|buscar)\b[^.?!]{0,20}$/i

function dayOf(result: ParsedResult, text: string, today: number): ScoredDay | null {
  const { start } = result
  const said = result.text.trim()
  // '18\nHoney' is no day, nor is 'last Sunday' one ahead.
  if (
    notADay.test(said) ||
    said.includes('\n') ||
    /\b(last|ago)\b/i.test(text.slice(Math.max(0, result.index - 5), result.index + said.length))
  ) {
    return null
  }
  const day = Math.floor(start.date().getTime() / dayMs)
  const namesADay =
    start.isCertain('weekday') ||
    start.isCertain('day') ||
    /week|today|tonight|this (morning|afternoon|evening)/i.test(said)
  if (!namesADay || !(day >= today && day <= today + daysAhead)) return null
  const score = scoreOf(text, result.index)
  const from = start.isCertain('hour') ? clock(start.get('hour')!, start.get('minute') ?? 0, start) : null
  const to = result.end?.isCertain('hour') ? clock(result.end.get('hour')!, result.end.get('minute') ?? 0) : null
  const between = from ? null : betweenHours(text.slice(result.index, result.index + said.length + 30))
  return { day, from: between?.from ?? from, to: between?.to ?? to, text: said, index: result.index, score }
}

/** The day they collect on first, else the one it is for: 'a sale on the 21st, can we collect on the 20th'. */
function scoreOf(text: string, index: number): number {
  const before = text.slice(Math.max(0, index - 40), index)
  return pickUpWords.test(before) ? 2 : /\bfor\s*$/i.test(before) ? 1 : 0
}

/** 'Saturday between 9 and 10', which chrono leaves without hours. */
function betweenHours(text: string): { from: string; to: string } | null {
  const match = /\bbetween (\d{1,2})(?:[:.](\d\d))? ?(am|pm)? and (\d{1,2})(?:[:.](\d\d))? ?(am|pm)?/i.exec(text)
  if (!match) return null
  const hour = (value: string | undefined, meridiem: string | undefined) =>
    Number(value) + (meridiem?.toLowerCase() === 'pm' && Number(value) < 12 ? 12 : 0)
  return {
    from: clock(hour(match[1], match[3] ?? match[6]), Number(match[2] ?? 0), !!(match[3] ?? match[6])),
    to: clock(hour(match[4], match[6]), Number(match[5] ?? 0), !!match[6]),
  }
}

function spokenLanguages(text: string): ChronoLanguage[] {
  const folded = fold(text)
  return languages
    .map(([language, words]) => ({ language, hits: folded.match(words)?.length ?? 0 }))
    .filter((spoken) => spoken.hits >= 2)
    .sort((a, b) => b.hits - a.hits)
    .map((spoken) => spoken.language)
}

function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/-/g, ' ')
}

/** 'Friday at 4' is four in the afternoon: no one collects eggs at four in the morning. */
function clock(hour: number, minute: number, meridiem: ParsedComponents | boolean = false): string {
  const said = typeof meridiem === 'boolean' ? meridiem : meridiem.isCertain('meridiem')
  const afternoon = hour >= 1 && hour <= 7 && !said
  const shown = afternoon ? hour + 12 : hour
  return `${String(shown).padStart(2, '0')}:${String(minute).padStart(2, '0')}`
}

/** 'the 14th': the next 14th of a month from today. */
function dayOfTheMonth(text: string, today: number): FoundDay | null {
  const days = [...text.matchAll(/\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b/gi)].flatMap((match) => {
    const day = nextOfTheMonth(Number(match[1]), today)
    if (day === null) return []
    return [{ day, from: null, to: null, text: match[0], index: match.index, score: scoreOf(text, match.index) }]
  })
  return days.reduce<ScoredDay | null>((kept, day) => (!kept || day.score > kept.score ? day : kept), null)
}

function nextOfTheMonth(date: number, today: number): number | null {
  const now = new Date(today * dayMs)
  for (let months = 0; months < 3 && date >= 1 && date <= 31; months++) {
    const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, date) / dayMs
    if (day >= today && new Date(day * dayMs).getUTCDate() === date) return day
  }
  return null
}

/** 'Next week': its first day the farm opens, else its Monday. */
function nextWeek(text: string, today: number, hours: FarmHours | null): FoundDay | null {
  const match = /\bnext week\b/i.exec(text)
  if (!match) return null
  const monday = today - weekdayOf(today) + 7
  const open = [0, 1, 2, 3, 4, 5, 6].map((ahead) => monday + ahead).find((day) => hours && hoursOn(hours, day))
  return { day: open ?? monday, from: null, to: null, text: match[0], index: match.index }
}

function partSpan(part: PartOfTheDay, span: FarmSpan | null) {
  const { within, unknown } = partsOfTheDay[part]
  if (!span) return { from: unknown.opens, to: unknown.closes }
  const from = later(span.opens, within.opens)
  const to = earlier(span.closes, within.closes)
  return from < to ? { from, to } : { from: unknown.opens, to: unknown.closes }
}

const later = (a: string, b: string) => (a > b ? a : b)
const earlier = (a: string, b: string) => (a < b ? a : b)

/** 0 is Monday: 1 January 1970 was a Thursday. */
const weekdayOf = (day: number) => (((day + 3) % 7) + 7) % 7

const dateOf = (day: number) => new Date(day * dayMs).toISOString().slice(0, 10)

const dayNumberOf = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / dayMs)

function hasHours(hours: FarmHours): boolean {
  return hours.week.some(Boolean) || hours.exceptions.length > 0
}

function hoursOn(hours: FarmHours, day: number): FarmSpan | null {
  const exception = hours.exceptions.find((each) => dayNumberOf(each.from) <= day && day <= dayNumberOf(each.to))
  return exception ? exception.hours : (hours.week[weekdayOf(day)] ?? null)
}
