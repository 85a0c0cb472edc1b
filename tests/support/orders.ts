import Sqlite from 'better-sqlite3'
import type { OrderRead } from '#app/analysis/analysis'
import type { RunningServer } from './server'

/** A product of this week's list, as a test sets it straight in SQLite. */
export interface ListedForTest {
  product: string
  priceCents: number | null
  unit: string
  stock: number | null
  availability?: string
}

/** Sets this week's list straight in the site's SQLite file (the products must be FARM_PRODUCTS'). */
export function setWeekList(databasePath: string, items: ListedForTest[]) {
  const sqlite = new Sqlite(databasePath)
  try {
    const upsert = sqlite.prepare(
      `INSERT INTO week_list (product, availability, price_cents, unit, note, stock, changed_at)
       VALUES (@product, @availability, @priceCents, @unit, '', @stock, @at)
       ON CONFLICT (product) DO UPDATE SET availability = @availability, price_cents = @priceCents,
         unit = @unit, stock = @stock, changed_at = @at`,
    )
    for (const item of items) upsert.run({ availability: 'available', ...item, at: Date.now() })
  } finally {
    sqlite.close()
  }
}

/**
 * A lead whose message reads as an order: posted through the form's API, then its analysis given
 * `order` straight in SQLite (the reader is another part of the work; its reading is only data here).
 */
export async function postOrderLead(
  server: RunningServer,
  fields: { name: string; email: string; message: string },
  order: OrderRead,
): Promise<number> {
  const response = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(fields),
  })
  if (response.status !== 201) throw new Error(`The lead was not taken: ${response.status}`)
  const { id } = ((await response.json()) as { data: { id: number } }).data
  const sqlite = new Sqlite(server.databasePath)
  try {
    const changed = sqlite
      .prepare(
        "UPDATE submissions SET analysis = json_set(analysis, '$.order', json(?)) WHERE id = ? AND analysis IS NOT NULL",
      )
      .run(JSON.stringify(order), id)
    if (changed.changes !== 1) throw new Error(`Lead ${id} has no analysis to give an order to`)
  } finally {
    sqlite.close()
  }
  return id
}

/** 'Two dozen eggs and 3 jars of honey for Saturday morning', as the reader would give it for `date`. */
export const eggsAndHoney = (date: string): OrderRead => ({
  lines: [
    { product: 'eggs', quantity: 2, unit: 'dozen' },
    { product: 'honey', quantity: 3, unit: 'jar' },
  ],
  unplaced: ['a bag of flour'],
  when: { date, from: '09:00', to: '12:00', words: 'Saturday morning' },
})

/** The farm's day `days` after today in UTC (the tests' farm clock), as YYYY-MM-DD. */
export const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

/** A card's order form as the browser sends it without JavaScript. */
export function orderForm(
  id: number,
  intent: 'order-draft' | 'order-confirm' | 'order-decline',
  fields: {
    lines?: Array<[product: string, quantity: string, unit: string]>
    date?: string
    from?: string
    to?: string
    text?: string
  },
) {
  const form = new URLSearchParams({ intent, id: String(id) })
  for (const [product, quantity, unit] of fields.lines ?? []) {
    form.append('product', product)
    form.append('quantity', quantity)
    form.append('unit', unit)
  }
  for (const name of ['date', 'from', 'to', 'text'] as const) {
    const value = fields[name]
    if (value !== undefined) form.append(name, value)
  }
  return form
}

/** Posts a card's form to the Farm Sales page as a browser without JavaScript does: the answer is the page (or a redirect). */
export async function postCardForm(server: RunningServer, cookie: string, form: URLSearchParams) {
  const response = await fetch(`${server.url}/farm-sales`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  })
  return { status: response.status, location: response.headers.get('location'), html: await response.text() }
}

/** A page's words as read: tags and React's text separators out, entities decoded. */
export const pageWords = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')

/** The drafted confirmation on a card, as the page holds it in its text box. */
export function draftedConfirmation(html: string, id: number): string | null {
  const box = new RegExp(`<textarea[^>]*id="confirmation-${id}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html)
  return box ? pageWords(box[1]!.replace(/\n/g, '\u0001')).replace(/\u0001/g, '\n') : null
}
