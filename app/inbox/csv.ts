import type { Submission } from '#app/leads/lead'
import { sortableTime, zoneWords } from '#app/clock/dates'

/** The columns: `received` as the API gives it (ISO 8601, UTC), then as the owner reads it, on the farm's clock. */
const csvColumns = (zone: string) => [
  'id',
  'received',
  `received (${zoneWords(zone)})`,
  'name',
  'email',
  'message',
  'status',
  'spam',
  'intents',
  'products',
  'urgency',
  'sentiment',
  'AI analysis',
]

/**
 * Spreadsheets run a cell that starts like a formula (OWASP's list: = + - @, tab, carriage
 * return, line feed, and the full-width ＝ ＋ － ＠ some of them read the same), also after
 * spaces they skip; a leading apostrophe keeps it text.
 */
const formulaStart = /^[\t\r\n]|^[\p{Zs}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/u

/** One CSV field (RFC 4180): quoted when it holds a quote, comma or line break, formulas defused. */
export function csvField(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : formulaStart.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export function csvRow(fields: Array<string | number>): string {
  return `${fields.map(csvField).join(',')}\r\n`
}

export function submissionCsvRow(submission: Submission, zone: string): string {
  const analysis = submission.analysis
  return csvRow([
    submission.id,
    submission.createdAt,
    sortableTime(Date.parse(submission.createdAt), zone),
    submission.name,
    submission.email,
    submission.message,
    submission.status,
    submission.spam ? submission.spam.join('; ') : '',
    analysis?.intents.join('; ') ?? '',
    analysis?.products.join('; ') ?? '',
    analysis?.urgency.level ?? '',
    analysis?.sentiment.label ?? '',
    submission.aiResponse ?? '',
  ])
}

/** UTF-8 with a byte order mark, so spreadsheet programs read accents and emoji right. */
export const csvStart = (zone: string) => `\uFEFF${csvRow(csvColumns(zone))}`
