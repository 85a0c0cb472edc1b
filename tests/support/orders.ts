import Sqlite from 'better-sqlite3'
import type { OrderRead } from '#app/analysis/analysis'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import * as schema from '#app/data/schema'
import { createOrderLinks } from '#app/orders/order-links.server'
import type { PageWords } from '#app/farm-page/page-words'
import { defaultWords } from '#app/farm-page/page-words.server'
import type { RunningServer } from './server'
import { openDatabase } from '#app/data/database.server'
import { recordOrderEvent } from '#app/orders/order-events.server'
import { migrationsFolder } from './database'

const dayMs = 24 * 60 * 60 * 1000

/** A day on the calendar (UTC, the farm's clock while none is chosen), `days` from today. */
export const dayFromToday = (days: number) => new Date(Date.now() + days * dayMs).toISOString().slice(0, 10)

export interface SeededOrder {
  orderId: number
  leadId: number
  /** The order's signed link's token, as its confirmation gives it. */
  token: string
}

/**
 * An order the team confirmed, written straight into a running site's database (confirming is not
 * this test's door): Ana's 2 dozen eggs (2 taken from the list's stock) and a jar of honey, picked up
 * on `pickUpDate` 9:00–12:00; the week's list holds `eggsLeft` dozen after it.
 */
export function seedOrder(
  databasePath: string,
  {
    pickUpDate,
    status = 'confirmed',
    name = 'Ana Lima',
    email = 'ana@example.com',
    eggsLeft = 0,
    confirmedDaysAgo = 0,
  }: {
    pickUpDate: string
    status?: schema.OrderRow['status']
    name?: string
    email?: string
    eggsLeft?: number
    confirmedDaysAgo?: number
  },
): SeededOrder {
  const sqlite = new Sqlite(databasePath)
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('foreign_keys = ON')
  try {
    const db = drizzle({ client: sqlite, schema })
    const at = new Date(Date.now() - confirmedDaysAgo * dayMs)
    const lead = db
      .insert(schema.submissions)
      .values({ name, email, message: 'Could I have two dozen eggs and a jar of honey for Saturday?', createdAt: at })
      .returning()
      .get()
    const order = db
      .insert(schema.orders)
      .values({
        submissionId: lead.id,
        status,
        pickUpDate,
        pickUpFrom: '09:00',
        pickUpTo: '12:00',
        totalCents: 1350,
        confirmedAt: at,
        changedAt: at,
      })
      .returning()
      .get()
    db.insert(schema.orderLines)
      .values([
        { orderId: order.id, position: 0, product: 'eggs', quantity: 2, unit: 'dozen', stockTaken: 2, priceCents: 800 },
        {
          orderId: order.id,
          position: 1,
          product: 'honey',
          quantity: 1,
          unit: 'jar',
          stockTaken: null,
          priceCents: 550,
        },
      ])
      .run()
    db.insert(schema.orderEvents).values({ orderId: order.id, type: 'order.confirmed', at }).run()
    for (const [product, stock, unit] of [
      ['eggs', eggsLeft, 'a dozen'],
      ['honey', null, 'a jar'],
    ] as const) {
      db.insert(schema.weekList)
        .values({
          product,
          availability: 'available',
          priceCents: product === 'eggs' ? 400 : 550,
          unit,
          stock,
          changedAt: at,
        })
        .onConflictDoUpdate({ target: schema.weekList.product, set: { stock } })
        .run()
    }
    const url = createOrderLinks({ db, publicUrl: () => 'http://farm.test' }).url(order.id)
    return { orderId: order.id, leadId: lead.id, token: new URL(url).searchParams.get('token')! }
  } finally {
    sqlite.close()
  }
}

/** The farm's page published with where to find it (the order's page shows the address and, after the cut-off, the phone). */
export function publishFindUs(databasePath: string, findUs: PageWords['findUs']) {
  const sqlite = new Sqlite(databasePath)
  sqlite.pragma('busy_timeout = 5000')
  try {
    sqlite
      .prepare(
        "INSERT INTO farm_page (version, words, changed_at) VALUES ('published', ?, ?) ON CONFLICT (version) DO UPDATE SET words = excluded.words",
      )
      .run(JSON.stringify({ ...defaultWords, findUs }), Date.now())
  } finally {
    sqlite.close()
  }
}

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

export interface PlacedOrder {
  name: string
  email?: string
  date: string
  from?: string | null
  to?: string | null
  lines: Array<{ product: string; quantity: number; unit?: string; priceCents?: number | null }>
  status?: schema.OrderRow['status']
}

/**
 * Orders as the team's Confirm stores them, written straight into a site's database file: a lead,
 * its order and lines, and the `order.confirmed` event (with the webhook post it owes). The ids,
 * in the order given.
 */
export function placeOrders(databasePath: string, placed: PlacedOrder[], at = new Date()): number[] {
  const { db, sqlite, close } = openDatabase(databasePath, migrationsFolder)
  // A running site may hold the lock for a moment: wait for it, as its own writes do.
  sqlite.pragma('busy_timeout = 5000')
  try {
    return db.transaction((tx) =>
      placed.map((order) => {
        const email = order.email ?? `${order.name.split(' ')[0]!.toLowerCase()}@example.com`
        const lead = tx
          .insert(schema.submissions)
          .values({ name: order.name, email, message: 'An order, as written.', createdAt: at })
          .returning({ id: schema.submissions.id })
          .get()
        const prices = order.lines.map((line) => line.priceCents ?? null)
        const { id } = tx
          .insert(schema.orders)
          .values({
            submissionId: lead.id,
            status: order.status ?? 'confirmed',
            pickUpDate: order.date,
            pickUpFrom: order.from ?? null,
            pickUpTo: order.to ?? null,
            totalCents: prices.includes(null) ? null : prices.reduce((sum, cents) => sum! + cents!, 0),
            confirmedAt: at,
            changedAt: at,
          })
          .returning({ id: schema.orders.id })
          .get()
        tx.insert(schema.orderLines)
          .values(
            order.lines.map((line, position) => ({
              orderId: id,
              position,
              product: line.product,
              quantity: line.quantity,
              unit: line.unit ?? '',
              priceCents: line.priceCents ?? null,
            })),
          )
          .run()
        recordOrderEvent(tx, { orderId: id, type: 'order.confirmed', at, by: null })
        return id
      }),
    )
  } finally {
    close()
  }
}
