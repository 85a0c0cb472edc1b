// The pick-ups and the orders' API attacked: every method and spelling of their doors, forged and
// odd fields, ids and dates, a file for a field, markup and formulas in a person's name. Each is
// answered in the one error shape (never a 500), changes nothing it should not, and writes what
// people typed as text.
import { beforeAll, describe, expect, it } from 'vitest'
import { parseCsv } from '#tests/support/csv-parse'
import { readRows } from '#tests/support/database'
import { dayFromToday, placeOrders } from '#tests/support/orders'
import { ownerPassword } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'
import { addPerson, fromSomewhere, signInAs } from '#tests/support/team'

let server: RunningServer
let helper: string
let id: number
let cancelled: number
const serve = serverPerFile()
beforeAll(async () => {
  server = await serve({ env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback' } })
  const owner = await signInAs(server.url, '', ownerPassword)
  helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
  ;[id, cancelled] = placeOrders(server.databasePath, [
    {
      name: '=HYPERLINK("http://evil.example","<img src=x onerror=alert(1)>")',
      date: dayFromToday(0),
      lines: [{ product: '<b>eggs</b>', quantity: 2, unit: 'dozen' }],
    },
    { name: 'Gone', date: dayFromToday(0), status: 'cancelled', lines: [{ product: 'eggs', quantity: 1 }] },
  ]) as [number, number]
})

const statusOf = () => readRows<{ status: string }>(server.databasePath, 'SELECT status FROM orders ORDER BY id')
const eventCount = () => readRows<{ n: number }>(server.databasePath, 'SELECT count(*) AS n FROM order_events')[0]!.n

function send(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return rawRequest(server.url, {
    method,
    path,
    headers: { Cookie: helper, ...fromSomewhere(), ...headers },
    body,
  })
}
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded' }
const json = { 'Content-Type': 'application/json' }

describe('the pick-ups page’s form', () => {
  it.each([
    ['a status spelled otherwise', { order: '1', status: 'Collected' }, 400],
    ['a status with a NUL', { order: '1', status: 'collected\u0000' }, 400],
    ['the cancelling status', { order: '1', status: 'cancelled' }, 400],
    ['the confirming status', { order: '1', status: 'confirmed' }, 400],
    ['no status', { order: '1' }, 400],
    ['an id that is not one', { order: '1 OR 1=1', status: 'collected' }, 404],
    ['a negative id', { order: '-1', status: 'collected' }, 404],
    ['a huge id', { order: '9'.repeat(40), status: 'collected' }, 404],
    ['an id in another script’s digits', { order: '١', status: 'collected' }, 404],
    ['an id that is gone', { order: '424242', status: 'collected' }, 404],
  ])('refuses %s, changing nothing', async (_, fields, status) => {
    const events = eventCount()
    const answer = await send('POST', '/farm-sales/pickups?_data=routes/farm-sales_.pickups', form(fields), formHeaders)
    expect(answer.status).toBe(status)
    expect(JSON.parse(answer.text)).toEqual({ error: expect.any(String) })
    expect([statusOf(), eventCount()]).toEqual([[{ status: 'confirmed' }, { status: 'cancelled' }], events])
  })

  it('refuses a file for a field, and a cancelled order', async () => {
    const boundary = 'pickupsboundary'
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="order"\r\n\r\n${id}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="status"; filename="s.txt"\r\nContent-Type: text/plain\r\n\r\ncollected\r\n`,
      `--${boundary}--\r\n`,
    ].join('')
    const file = await send('POST', '/farm-sales/pickups?_data=routes/farm-sales_.pickups', body, {
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
    })
    expect([file.status, JSON.parse(file.text)]).toEqual([
      400,
      { error: 'Send the form’s fields as text, not as files.' },
    ])
    const gone = await send(
      'POST',
      '/farm-sales/pickups?_data=routes/farm-sales_.pickups',
      form({ order: String(cancelled), status: 'collected' }),
      formHeaders,
    )
    expect(gone.status).toBe(409)
    expect(statusOf()).toEqual([{ status: 'confirmed' }, { status: 'cancelled' }])
  })

  it.each(['PUT', 'PATCH', 'DELETE'])('answers %s with 405 and what it takes', async (method) => {
    const body = form({ order: String(id), status: 'collected' })
    const answer = await send(
      method,
      '/farm-sales/pickups',
      body,
      // Node sends no body with DELETE unless told its length.
      { ...formHeaders, 'Content-Length': String(body.length) },
    )
    expect([answer.status, answer.headers.allow]).toEqual([405, 'POST'])
    expect(statusOf()[0]).toEqual({ status: 'confirmed' })
  })

  it('writes a person’s name and products as text, on the page and in the CSV (formulas defused)', async () => {
    const page = await send('GET', '/farm-sales/pickups')
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('<img src=x')
    expect(page.text).not.toContain('<b>eggs</b>')
    expect(page.text).toContain('&lt;b&gt;eggs&lt;/b&gt;')
    const csv = await send('GET', '/farm-sales/pickups.csv')
    const [, row] = parseCsv(csv.text.replace(/^\uFEFF/, ''))
    expect(row![3]).toBe(`'=HYPERLINK("http://evil.example","<img src=x onerror=alert(1)>")`)
  })
})

describe('the orders’ API', () => {
  it.each([
    ['from=2026-13-01', 400],
    ['from=2026-12-01&to=2026-11-30', 400],
    ['from=0001-01-01&to=9999-12-31', 400],
    ['from=%F0%9F%A5%9A', 400],
    ['from=2026-12-01%00', 400],
    ['limit=99999999999999999999', 400],
    ['after=1e3', 400],
    ['to=2026-12-01&to=2026-12-02', 400],
  ])('refuses GET /api/orders?%s in the one error shape', async (query, status) => {
    const answer = await send('GET', `/api/orders?${query}`)
    expect([answer.status, Object.keys(JSON.parse(answer.text))]).toEqual([status, ['error']])
  })

  it.each([
    ['POST', '/api/orders', 405],
    ['PUT', '/api/orders', 405],
    ['DELETE', '/api/orders', 405],
    ['GET', `/api/orders/1`, 405],
    ['PUT', `/api/orders/1`, 405],
    ['POST', `/api/orders/1`, 405],
    ['DELETE', `/api/orders/1`, 405],
  ])('answers %s %s with 405 in JSON', async (method, path, status) => {
    const body = method === 'GET' ? undefined : '{"status":"collected"}'
    const answer = await send(method, path, body, body ? { ...json, 'Content-Length': String(body.length) } : json)
    expect([answer.status, Object.keys(JSON.parse(answer.text))]).toEqual([status, ['error']])
    expect(statusOf()[0]).toEqual({ status: 'confirmed' })
  })

  it.each([
    ['an array', '[{"status":"collected"}]', 400],
    ['a string', '"collected"', 400],
    ['a forged order and person', '{"status":"collected","id":2,"changedBy":1}', 400],
    ['a status in capitals', '{"status":"COLLECTED"}', 400],
    ['a status of another type', '{"status":1}', 400],
    ['a body of a megabyte', `{"status":"collected","x":"${'a'.repeat(1_000_000)}"}`, 413],
  ])('refuses %s for PATCH, changing nothing', async (_, body, status) => {
    const answer = await send('PATCH', `/api/orders/${id}`, body, json)
    expect([answer.status, Object.keys(JSON.parse(answer.text))]).toEqual([status, ['error']])
    expect(statusOf()[0]).toEqual({ status: 'confirmed' })
  })

  it.each(['/api/orders/010', '/api/orders/1.json', '/api/orders/1%20', '/api/orders/-1', '/api/orders/1%00'])(
    'answers PATCH %s without marking anything it did not name',
    async (path) => {
      const answer = await send('PATCH', path, '{"status":"collected"}', json)
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(Object.keys(JSON.parse(answer.text))).toEqual(['error'])
      expect(statusOf()[0]).toEqual({ status: 'confirmed' })
    },
  )
})
