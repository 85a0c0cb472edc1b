import { intents, urgencyLevels, type Intent, type UrgencyLevel } from '#app/analysis/analysis'
import { submissionStatuses, type SubmissionStatus } from '#app/data/enums'
import { isSubmissionId, type Submission } from '#app/leads/lead'

/** Which submissions the owner is looking at: the inbox or the spam folder, searched and filtered. */
export interface InboxView {
  q?: string
  intent?: Intent
  product?: string
  urgency?: UrgencyLevel
  status?: SubmissionStatus
  spam: boolean
}

/** One page of a view: newest first, older than `before` and newer than `after`. */
export interface InboxPage extends InboxView {
  before?: number
  after?: number
  limit: number
}

export interface PageSizes {
  default: number
  most: number
}

export const apiPageSizes: PageSizes = { default: 100, most: 500 }
export const inboxPageSizes: PageSizes = { default: 25, most: 50 }

export const longestSearch = 200
const longestProduct = 60

export type InboxQueryResult = { ok: true; page: InboxPage } | { ok: false; error: string }

function oneOf<T extends string>(allowed: readonly T[], value: string): value is T {
  return (allowed as readonly string[]).includes(value)
}

/** Reads a page of the inbox from URL parameters, as the API and the Farm Sales page take them. */
export function readInboxQuery(params: URLSearchParams, sizes: PageSizes): InboxQueryResult {
  const names = ['before', 'after', 'limit', 'q', 'intent', 'product', 'urgency', 'status', 'spam'] as const
  const given: Partial<Record<(typeof names)[number], string>> = {}
  for (const name of names) {
    const values = params.getAll(name)
    if (values.length > 1) return { ok: false, error: `The "${name}" parameter may be given only once.` }
    if (values.length === 1) given[name] = values[0]!
  }
  const page: InboxPage = { spam: false, limit: sizes.default }
  for (const name of ['before', 'after'] as const) {
    const value = given[name]
    if (value === undefined) continue
    if (!isSubmissionId(value)) return { ok: false, error: `The "${name}" parameter must be a submission id.` }
    page[name] = Number(value)
  }
  if (given.limit !== undefined) {
    const limit = Number(given.limit)
    if (!/^\d{1,4}$/.test(given.limit) || limit < 1 || limit > sizes.most) {
      return { ok: false, error: `The "limit" parameter must be a whole number from 1 to ${sizes.most}.` }
    }
    page.limit = limit
  }
  const q = given.q?.trim()
  if (q) {
    if (q.length > longestSearch) return { ok: false, error: `Search for at most ${longestSearch} characters.` }
    page.q = q
  }
  if (given.intent) {
    if (!oneOf(intents, given.intent))
      return { ok: false, error: `The "intent" parameter must be one of ${intents.join(', ')}.` }
    page.intent = given.intent
  }
  const product = given.product?.trim()
  if (product) {
    if (product.length > longestProduct)
      return { ok: false, error: `The "product" parameter is at most ${longestProduct} characters.` }
    page.product = product
  }
  if (given.urgency) {
    if (!oneOf(urgencyLevels, given.urgency))
      return { ok: false, error: 'The "urgency" parameter must be high or normal.' }
    page.urgency = given.urgency
  }
  if (given.status) {
    if (!oneOf(submissionStatuses, given.status))
      return { ok: false, error: 'The "status" parameter must be new or handled.' }
    page.status = given.status
  }
  if (given.spam !== undefined && given.spam !== '') {
    if (given.spam !== 'true' && given.spam !== 'false')
      return { ok: false, error: 'The "spam" parameter must be true or false.' }
    page.spam = given.spam === 'true'
  }
  return { ok: true, page }
}

/** The URL parameters that show a view, leaving out what is the default. */
export function viewParams(view: InboxView): URLSearchParams {
  const params = new URLSearchParams()
  if (view.q) params.set('q', view.q)
  if (view.intent) params.set('intent', view.intent)
  if (view.product) params.set('product', view.product)
  if (view.urgency) params.set('urgency', view.urgency)
  if (view.status) params.set('status', view.status)
  if (view.spam) params.set('spam', 'true')
  return params
}

/** The parameters of the page after this one: the same view and size, older than `oldestId`. */
export function pageParams(page: InboxPage, oldestId: number): URLSearchParams {
  const params = viewParams(page)
  if (page.after !== undefined) params.set('after', String(page.after))
  params.set('before', String(oldestId))
  params.set('limit', String(page.limit))
  return params
}

/**
 * The visitor's words as an FTS5 query that cannot be read as syntax: each space-separated
 * chunk becomes a quoted phrase of its letters and digits, the last one a prefix, so
 * "example.com" finds senders at example.com and `NEAR(`, `OR`, `*` and quotes are plain text.
 * Null when nothing searchable is left.
 */
export function searchMatch(q: string): string | null {
  const phrases = searchPhrases(q)
  if (phrases.length === 0) return null
  return phrases.map((phrase) => `"${phrase.join(' ')}"${endsInPrefix(phrase) ? '*' : ''}`).join(' ')
}

/**
 * FTS5 merges every stored word a prefix starts: "a"* over 100,000 messages is most of the
 * index, and a search of a hundred one-letter words took 220 ms. So a word is a prefix only
 * from three letters on, and a search reads at most eight phrases.
 */
const shortestPrefix = 3
const mostPhrases = 8

function endsInPrefix(phrase: string[]): boolean {
  return (phrase.at(-1)?.length ?? 0) >= shortestPrefix
}

/** Letters and digits, folded as SQLite's unicode61 tokenizer folds them (case and accents). */
function tokens(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
}

function searchPhrases(q: string): string[][] {
  return q
    .split(/\s+/u)
    .map(tokens)
    .filter((phrase) => phrase.length > 0)
    .slice(0, mostPhrases)
}

/** The phrase's words in a row, the last one as a prefix when long enough, as FTS5 reads `"a b"*`. */
function containsPhrase(words: string[], phrase: string[]): boolean {
  const prefix = endsInPrefix(phrase)
  return words.some((_, start) =>
    phrase.every((token, index) => {
      const word = words[start + index]
      if (word === undefined) return false
      return prefix && index === phrase.length - 1 ? word.startsWith(token) : word === token
    }),
  )
}

/**
 * Whether a submission belongs in a view, as the server's list would decide: for live arrivals.
 * A page that shows a stretch of the past (`before`, `after`: a week the insights link to) keeps out what is not in it.
 */
export function matchesView(submission: Submission, view: InboxView & Pick<InboxPage, 'before' | 'after'>): boolean {
  if (view.before !== undefined && submission.id >= view.before) return false
  if (view.after !== undefined && submission.id <= view.after) return false
  if ((submission.spam !== null) !== view.spam) return false
  if (view.status && submission.status !== view.status) return false
  const analysis = submission.analysis
  if (view.intent && !analysis?.intents.includes(view.intent)) return false
  if (view.product && !analysis?.products.includes(view.product)) return false
  if (view.urgency && analysis?.urgency.level !== view.urgency) return false
  if (view.q) {
    const fields = [submission.name, submission.email, submission.message].map(tokens)
    return searchPhrases(view.q).every((phrase) => fields.some((words) => containsPhrase(words, phrase)))
  }
  return true
}
