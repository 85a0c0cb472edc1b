// The pick-ups page, its CSV and the orders' API on the real server, with orders placed straight in
// its SQLite file as the team's Confirm stores them (tests/support/orders.ts). The page in a
// browser (live, print, axe) is tests/e2e/pickups.spec.ts's.
import Sqlite from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseCsv } from '#tests/support/csv-parse'
import { readRows } from '#tests/support/database'
import { dayFromToday, placeOrders } from '#tests/support/orders'
import { ownerPassword } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import { type RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'
import { addPerson, fromSomewhere, signInAs } from '#tests/support/team'

const today = dayFromToday(0)
const get = (server: RunningServer, path: string, cookie?: string) =>
  rawRequest(server.url, { method: 'GET', path, headers: cookie ? { Cookie: cookie } : {} })
const patch = (server: RunningServer, id: number | string, body: string, cookie: string, type = 'application/json') =>
  rawRequest(server.url, {
    method: 'PATCH',
    path: `/api/orders/${id}`,
    headers: { Cookie: cookie, 'Content-Type': type },
    body,
  })

/** The visible words of a page, in order. */
const wordsOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>|<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')

describe('the pick-ups, with a team', () => {
  let server: RunningServer
  let owner: string
  let helper: string
  let ids: number[]
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback' } })
    owner = await signInAs(server.url, '', ownerPassword)
    helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
    ids = placeOrders(server.databasePath, [
      { name: 'Cara Any', date: today, lines: [{ product: 'eggs', quantity: 6, unit: '' }] },
      {
        name: 'Bea Late',
        date: today,
        from: '11:00',
        to: '12:00',
        lines: [
          { product: 'eggs', quantity: 2, unit: 'dozen', priceCents: 900 },
          { product: 'honey', quantity: 3, unit: 'jar', priceCents: 1650 },
        ],
      },
      {
        name: 'Ann Early',
        date: today,
        from: '09:00',
        to: '10:00',
        lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }],
      },
      {
        name: 'Dan Gone',
        date: today,
        from: '08:00',
        status: 'cancelled',
        lines: [{ product: 'eggs', quantity: 9, unit: 'dozen' }],
      },
      { name: 'Eve Later', date: dayFromToday(400), lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }] },
    ])
  })

  it('lists today’s orders by pick-up time with the packing totals, for a helper too; a stranger signs in first', async () => {
    const stranger = await get(server, '/farm-sales/pickups')
    expect([stranger.status, stranger.headers.location]).toEqual([302, '/sign-in?redirectTo=%2Ffarm-sales%2Fpickups'])
    for (const cookie of [owner, helper]) {
      const page = await get(server, '/farm-sales/pickups', cookie)
      expect(page.status).toBe(200)
      const words = wordsOf(page.text)
      expect(words).toContain('3 orders, 0 collected')
      expect(words).toMatch(/Packing list 6 eggs \(1 order\) 3 dozen eggs \(2 orders\) 3 jars of honey \(1 order\)/)
      const names = [...words.matchAll(/(Ann Early|Bea Late|Cara Any|Dan Gone|Eve Later)/g)].map((match) => match[1])
      expect(names).toEqual(['Ann Early', 'Bea Late', 'Cara Any'])
      expect(words).toContain('9:00–10:00 Ann Early 1 dozen eggs — To collect')
      expect(words).toContain('11:00–12:00 Bea Late 2 dozen eggs · 3 jars of honey €25.50')
    }
    expect((await get(server, '/farm-sales', helper)).text).toContain('href="/farm-sales/pickups"')
  })

  it('marks an order collected with the page’s own form (no JavaScript), back to the same view', async () => {
    const marked = await rawRequest(server.url, {
      path: '/farm-sales/pickups?days=week',
      headers: { Cookie: helper, 'Content-Type': 'application/x-www-form-urlencoded', ...fromSomewhere() },
      body: new URLSearchParams({ order: String(ids[2]), status: 'collected' }).toString(),
    })
    expect([marked.status, marked.headers.location]).toEqual([303, `/farm-sales/pickups?days=week#order-${ids[2]}`])
    expect(wordsOf((await get(server, '/farm-sales/pickups?days=week', owner)).text)).toContain(
      '9:00–10:00 Ann Early 1 dozen eggs — Collected',
    )
    const helperId = readRows<{ id: number }>(
      server.databasePath,
      "SELECT id FROM team WHERE email = 'sam@farm.example'",
    )[0]!.id
    expect(readRows(server.databasePath, 'SELECT status, changed_by AS by FROM orders WHERE id = ?', ids[2])).toEqual([
      { status: 'collected', by: helperId },
    ])
    expect(
      readRows(server.databasePath, 'SELECT type, by FROM order_events WHERE order_id = ? ORDER BY id', ids[2]),
    ).toEqual([
      { type: 'order.confirmed', by: null },
      { type: 'order.collected', by: helperId },
    ])

    const cancelled = await rawRequest(server.url, {
      path: '/farm-sales/pickups',
      headers: { Cookie: owner, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: new URLSearchParams({ order: String(ids[3]), status: 'collected' }).toString(),
    })
    expect(cancelled.status).toBe(409)
    expect(wordsOf(cancelled.text)).toContain('This order was cancelled: there is nothing to collect.')
  })

  it('downloads the same rows as CSV', async () => {
    const csv = await get(server, '/farm-sales/pickups.csv', helper)
    expect(csv.status).toBe(200)
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="pick-ups-${today}.csv"`)
    const rows = parseCsv(csv.text.replace(/^\uFEFF/, ''))
    expect(rows[0]).toEqual(['order', 'pick-up day', 'pick-up time', 'name', 'email', 'what', 'total (EUR)', 'status'])
    expect(rows.slice(1).map((row) => [row[3], row[2], row[5], row[6], row[7]])).toEqual([
      ['Ann Early', '9:00–10:00', '1 dozen eggs', '', 'Collected'],
      ['Bea Late', '11:00–12:00', '2 dozen eggs · 3 jars of honey', '25.50', 'To collect'],
      ['Cara Any', 'any time', '6 eggs', '', 'To collect'],
    ])
    expect((await get(server, '/farm-sales/pickups.csv')).status).toBe(401)
  })

  it('answers GET /api/orders a page at a time, with the dates checked', async () => {
    const all = await get(server, `/api/orders?from=${today}&to=${dayFromToday(365)}`, helper)
    expect(all.status).toBe(200)
    const orders = JSON.parse(all.text) as Array<{ id: number; name: string; status: string }>
    expect(orders.map((order) => [order.name, order.status])).toEqual([
      ['Cara Any', 'confirmed'],
      ['Bea Late', 'confirmed'],
      ['Ann Early', 'collected'],
      ['Dan Gone', 'cancelled'],
    ])
    const first = await get(server, `/api/orders?limit=2`, owner)
    expect(JSON.parse(first.text).map((order: { id: number }) => order.id)).toEqual(ids.slice(0, 2))
    const next = String(first.headers.link)
    expect(next).toBe(
      `<${server.url}/api/orders?from=${today}&to=${dayFromToday(6)}&limit=2&after=${ids[1]}>; rel="next"`,
    )
    const second = await get(server, next.slice(1, next.indexOf('>')).replace(server.url, ''), owner)
    expect(JSON.parse(second.text).map((order: { id: number }) => order.id)).toEqual(ids.slice(2, 4))
    expect(second.headers.link).toBeUndefined()

    const refused = await get(server, '/api/orders?from=2026-02-30', owner)
    expect([refused.status, JSON.parse(refused.text)]).toEqual([
      400,
      { error: 'The "from" parameter must be a day written YYYY-MM-DD.' },
    ])
    const stranger = await get(server, '/api/orders')
    expect([stranger.status, JSON.parse(stranger.text)]).toEqual([
      401,
      { error: 'Sign in as one of the farm’s team to read the orders.' },
    ])
  })

  it('cancels an order by PATCH through the one door: stock back, its event by whom, once', async () => {
    const [orderId] = placeOrders(server.databasePath, [
      { name: 'Cal Phone', date: dayFromToday(0), lines: [{ product: 'eggs', quantity: 2, unit: 'dozen' }] },
    ])
    const sqlite = new Sqlite(server.databasePath)
    sqlite.prepare('UPDATE order_lines SET stock_taken = 2 WHERE order_id = ?').run(orderId)
    sqlite
      .prepare(
        "INSERT INTO week_list (product, availability, unit, stock, changed_at) VALUES ('eggs', 'available', 'a dozen', 1, 0) ON CONFLICT (product) DO UPDATE SET stock = 1",
      )
      .run()
    sqlite.close()
    const done = await patch(server, orderId!, '{"status":"cancelled"}', helper)
    expect([done.status, JSON.parse(done.text).data]).toMatchObject([200, { id: orderId, status: 'cancelled' }])
    const again = await patch(server, orderId!, '{"status":"cancelled"}', owner)
    expect([again.status, JSON.parse(again.text)]).toEqual([409, { error: 'This order is already cancelled.' }])
    expect(readRows(server.databasePath, "SELECT stock FROM week_list WHERE product = 'eggs'")).toEqual([{ stock: 3 }])
    expect(
      readRows(
        server.databasePath,
        'SELECT type, by IS NOT NULL AS byPerson FROM order_events WHERE order_id = ?',
        orderId,
      ),
    ).toEqual([
      { type: 'order.confirmed', byPerson: 0 },
      { type: 'order.cancelled', byPerson: 1 },
    ])
    // A team's cancel writes no note in the visitor's thread.
    expect(readRows(server.databasePath, "SELECT count(*) AS notes FROM replies WHERE kind = 'answer'")).toEqual([
      { notes: 0 },
    ])
  })

  it('answers PATCH /api/orders/:id in the one error shape', async () => {
    const done = await patch(server, ids[1]!, '{"status":"not-collected"}', helper)
    expect(done.status).toBe(200)
    expect(JSON.parse(done.text).data).toMatchObject({ id: ids[1], status: 'not-collected', name: 'Bea Late' })
    const refusals: Array<[Awaited<ReturnType<typeof patch>>, number, string]> = [
      [
        await patch(server, ids[3]!, '{"status":"collected"}', owner),
        409,
        'This order was cancelled: there is nothing to collect.',
      ],
      [
        await patch(server, 999, '{"status":"collected"}', owner),
        404,
        'There is no such order: it may have been deleted with its lead.',
      ],
      [await patch(server, 'eggs', '{"status":"collected"}', owner), 404, 'There is no order eggs.'],
      [
        await patch(server, ids[1]!, '{"status":"cancelled"}', owner),
        409,
        'This order was marked not collected: it cannot be cancelled now.',
      ],
      [
        await patch(server, 999, '{"status":"cancelled"}', owner),
        404,
        'There is no such order: it may have been deleted with its lead.',
      ],
      [
        await patch(server, ids[1]!, '{"status":"collected","by":1}', owner),
        400,
        'Send {"status": "collected"}, {"status": "not-collected"} or {"status": "cancelled"}.',
      ],
      [
        await patch(server, ids[1]!, '{"status":"confirmed"}', owner),
        400,
        'Send {"status": "collected"}, {"status": "not-collected"} or {"status": "cancelled"}.',
      ],
      [
        await patch(server, ids[1]!, 'status=collected', owner, 'application/x-www-form-urlencoded'),
        415,
        'Send the change as JSON (Content-Type: application/json).',
      ],
      [await patch(server, ids[1]!, '{"status":', owner), 400, 'The request body is not valid JSON.'],
    ]
    for (const [answer, status, error] of refusals) {
      expect([answer.status, JSON.parse(answer.text)]).toEqual([status, { error }])
    }
    const stranger = await rawRequest(server.url, {
      method: 'PATCH',
      path: `/api/orders/${ids[1]}`,
      headers: { 'Content-Type': 'application/json' },
      body: '{"status":"collected"}',
    })
    expect(stranger.status).toBe(401)
    expect(readRows(server.databasePath, 'SELECT status FROM orders WHERE id = ?', ids[1])).toEqual([
      { status: 'not-collected' },
    ])
  })
})

describe('the pick-ups in the open inbox (no one signs in)', () => {
  const serve = serverPerFile()
  it('are read by anyone who may read the inbox, and marked by no one', async () => {
    const server = await serve()
    const [id] = placeOrders(server.databasePath, [
      { name: 'Ann Early', date: today, lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }] },
    ])
    const page = await get(server, '/farm-sales/pickups')
    expect(page.status).toBe(200)
    expect(wordsOf(page.text)).toContain('Claim the site and sign in to mark orders collected')
    expect(page.text).not.toContain('name="status"')
    const refused = await rawRequest(server.url, {
      method: 'PATCH',
      path: `/api/orders/${id}`,
      headers: { 'Content-Type': 'application/json' },
      body: '{"status":"collected"}',
    })
    expect(refused.status).toBe(403)
    expect(JSON.parse(refused.text).error).toMatch(/^To change orders, claim the site first/)
  })
})
