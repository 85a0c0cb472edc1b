import { formTexts } from '#app/http/form-text.server'
import { dayNumberOf, type HoursException, type OpenSpan } from './opening-hours'
import { storyLimits, wordLimits } from './page-limits'
import type { PageWords } from './page-words'
import { linkPattern, parseStory, safeHref } from './story'

/** What the owner typed, as words, and what is wrong with it, by the form's field. */
export interface ReadForm {
  words: PageWords
  problems: Record<string, string>
  /** The fields as typed: what the form shows again when a problem keeps them from being saved. */
  typed: Record<string, string>
}

const days = [0, 1, 2, 3, 4, 5, 6]
/** Rows of exceptions read: one past the limit, to say so when it is filled. */
const exceptionRows = Array.from({ length: wordLimits.exceptions + 1 }, (_, row) => row)
const exceptionFields = (row: number) =>
  ['from', 'to', 'opens', 'closes', 'note'].map((part) => `exception-${part}-${row}`)

export const pageFieldNames = [
  'welcome',
  'intro',
  'card-0-title',
  'card-0-text',
  'card-1-title',
  'card-1-text',
  'story',
  ...days.flatMap((day) => [`opens-${day}`, `closes-${day}`]),
  ...exceptionRows.flatMap(exceptionFields),
  'address',
  'directions',
  'phone',
]

// Letters no field needs: the C0 controls but tab and newline, DEL, and the bidi overrides.
const unwanted = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g
const isTime = (text: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(text)
const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))

/** A day's hours from its two fields: both empty is closed; else both times, closing later. */
function spanOf(opens: string, closes: string): { span: OpenSpan | null } | { problem: string } {
  if (opens === '' && closes === '') return { span: null }
  if (!isTime(opens) || !isTime(closes))
    return { problem: 'Write both times as hours and minutes (9:00, 18:00), or neither for closed.' }
  if (closes <= opens) return { problem: 'Closing comes after opening, the same day.' }
  return { span: { opens, closes } }
}

/** 9:00 as the time field's 09:00: a browser without one sends what was typed. */
const timeOf = (text: string) => (/^\d:\d\d$/.test(text) ? `0${text}` : text)

/** Reads the editor's form; null when a field came as a file. */
export function readPageForm(form: FormData): ReadForm | null {
  const raw = formTexts(form, pageFieldNames)
  if (!raw) return null
  const field = (name: string) => raw[name]!.replace(unwanted, '').replace(/\r\n?/g, '\n').trim()
  const problems: Record<string, string> = {}
  const longest = (name: string, limit: number) => {
    if (field(name).length > limit) problems[name] = `At most ${limit} characters here; this is ${field(name).length}.`
  }
  longest('welcome', wordLimits.welcome)
  longest('intro', wordLimits.intro)
  for (const card of [0, 1]) {
    longest(`card-${card}-title`, wordLimits.cardTitle)
    longest(`card-${card}-text`, wordLimits.cardText)
  }
  longest('address', wordLimits.address)
  longest('directions', wordLimits.directions)
  longest('phone', wordLimits.phone)
  const story = storyProblem(field('story'))
  if (story) problems.story = story
  if (field('phone') !== '' && !/^\+?[0-9][0-9 ()\-.]{2,29}$/.test(field('phone'))) {
    problems.phone = 'Write the phone in digits, spaces and dashes, with + and the country’s code if you like.'
  }
  const week = days.map((day) => {
    const read = spanOf(timeOf(field(`opens-${day}`)), timeOf(field(`closes-${day}`)))
    if ('problem' in read) problems[`hours-${day}`] = read.problem
    return 'span' in read ? read.span : null
  })
  const exceptions = readExceptions(field, problems)
  const words: PageWords = {
    welcome: field('welcome'),
    intro: field('intro'),
    cards: [0, 1].map((card) => ({ title: field(`card-${card}-title`), text: field(`card-${card}-text`) })),
    story: field('story'),
    hours: { week, exceptions },
    findUs: { address: field('address'), directions: field('directions'), phone: field('phone') },
  }
  return { words, problems, typed: raw }
}

function readExceptions(field: (name: string) => string, problems: Record<string, string>): HoursException[] {
  const exceptions: HoursException[] = []
  for (const row of exceptionRows) {
    const [from, to, opens, closes, note] = exceptionFields(row).map(field) as [string, string, string, string, string]
    if (from === '' && to === '' && opens === '' && closes === '' && note === '') continue
    const problem = (words: string) => (problems[`exception-${row}`] ??= words)
    if (row === wordLimits.exceptions) problem(`At most ${wordLimits.exceptions} days that differ from the week.`)
    if (!isDate(from) || (to !== '' && !isDate(to)))
      problem('Write the first day (and the last, if more than one) as dates.')
    const last = to === '' ? from : to
    if (isDate(from) && isDate(last) && dayNumberOf(last) < dayNumberOf(from))
      problem('The last day comes after the first.')
    if (isDate(from) && isDate(last) && dayNumberOf(last) - dayNumberOf(from) > 366)
      problem('At most a year at a time.')
    if (note.length > wordLimits.note) problem(`At most ${wordLimits.note} characters in the note.`)
    const read = spanOf(timeOf(opens), timeOf(closes))
    if ('problem' in read) problem(read.problem)
    exceptions.push({ from, to: last, hours: 'span' in read ? read.span : null, note })
  }
  return exceptions
}

/** The editor's fields filled from the words: the names page-form.server.ts reads back. */
export function formValuesOf(words: PageWords): Record<string, string> {
  const values: Record<string, string> = {
    welcome: words.welcome,
    intro: words.intro,
    story: words.story,
    ...words.findUs,
  }
  words.cards.forEach((card, index) => {
    values[`card-${index}-title`] = card.title
    values[`card-${index}-text`] = card.text
  })
  words.hours.week.forEach((span, day) => {
    values[`opens-${day}`] = span?.opens ?? ''
    values[`closes-${day}`] = span?.closes ?? ''
  })
  words.hours.exceptions.forEach((exception, row) => {
    values[`exception-from-${row}`] = exception.from
    values[`exception-to-${row}`] = exception.to === exception.from ? '' : exception.to
    values[`exception-opens-${row}`] = exception.hours?.opens ?? ''
    values[`exception-closes-${row}`] = exception.hours?.closes ?? ''
    values[`exception-note-${row}`] = exception.note
  })
  return values
}

/** What is wrong with a story the owner wrote, in words to fix it by, or null. */
export function storyProblem(source: string): string | null {
  if (source.length > storyLimits.characters) {
    return `The story is ${source.length} characters long; at most ${storyLimits.characters}.`
  }
  const paragraphs = parseStory(source)
  if (paragraphs.length > storyLimits.paragraphs) return `At most ${storyLimits.paragraphs} paragraphs in the story.`
  const links = [...source.matchAll(linkPattern)]
  if (links.length > storyLimits.links) return `At most ${storyLimits.links} links in the story.`
  for (const link of links) {
    if (link[2]!.length > storyLimits.linkLength)
      return `A link’s address is at most ${storyLimits.linkLength} characters.`
    if (!safeHref(link[2]!)) {
      return `The link “${link[1]}” goes nowhere a visitor can safely follow: write an address starting with https://, or mailto: or tel:.`
    }
  }
  return null
}
