// The order's link is the only key to an order: signed for that one order, single-purpose (it shows
// the order and cancels it, nothing else), refused after the cut-off. Each attack below is kept as a
// regression test: forged, cut, turned and replayed tokens, other methods and spellings, odd bodies.
import { beforeAll, describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { dayFromToday, seedOrder, type SeededOrder } from '#tests/support/orders'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const serve = serverPerFile('SIGKILL')
let server: RunningServer
let ana: SeededOrder
let ben: SeededOrder
beforeAll(async () => {
  server = await serve({ env: { FARM_NAME: 'Bramble Farm' } })
  ana = seedOrder(server.databasePath, { pickUpDate: dayFromToday(5) })
  ben = seedOrder(server.databasePath, { pickUpDate: dayFromToday(5), name: 'Ben', email: 'ben@example.com' })
})

const statuses = () => readRows(server.databasePath, 'SELECT id, status FROM orders ORDER BY id')
const cancelledEvents = () =>
  readRows(server.databasePath, "SELECT order_id FROM order_events WHERE type = 'order.cancelled' ORDER BY id")
const eggsLeft = () => readRows(server.databasePath, "SELECT stock FROM week_list WHERE product = 'eggs'")[0]
const unchanged = () => {
  expect(statuses()).toEqual([
    { id: ana.orderId, status: 'confirmed' },
    { id: ben.orderId, status: 'confirmed' },
  ])
  expect(cancelledEvents()).toEqual([])
}

const cancelAt = (path: string, body = 'intent=cancel', headers: Record<string, string> = {}) =>
  rawRequest(server.url, {
    path,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': String(Buffer.byteLength(body)),
      ...headers,
    },
    body,
  })

describe('a token this site did not sign for that order is no order at all', () => {
  const forged = () => {
    const [id, signature] = ana.token.split('.') as [string, string]
    return {
      'another order’s id with this signature': `${ben.orderId}.${signature}`,
      'a leading zero': `0${id}.${signature}`,
      'the signature changed': `${id}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      'the signature cut short': `${id}.${signature.slice(0, 20)}`,
      'a space after it': `${ana.token}%20`,
      'a NUL in it': `${id}%00.${signature}`,
      'its signature alone': signature,
      'an empty token': '',
      'a long token': 'A'.repeat(10_000),
      'a non-ASCII token': `${id}.${'%C3%A9'.repeat(43)}`,
    }
  }

  it('shows plainly that the link does not work, and cancels nothing', async () => {
    for (const [how, token] of Object.entries(forged())) {
      const shown = await fetch(`${server.url}/order?token=${token}`)
      expect([how, shown.status]).toEqual([how, 404])
      expect(await shown.text()).toContain('This link does not work')
      const cancelled = await cancelAt(`/order?token=${token}`)
      expect([how, cancelled.status]).toEqual([how, 404])
    }
    for (const path of ['/order', '/order?TOKEN=' + ana.token, '/order?tokens=' + ana.token]) {
      expect([path, (await fetch(`${server.url}${path}`)).status]).toEqual([path, 404])
      expect([path, (await cancelAt(path)).status]).toEqual([path, 404])
    }
    unchanged()
  })

  it('reads the token from the link alone, never from the form’s body', async () => {
    const answer = await cancelAt('/order', `intent=cancel&token=${ana.token}`)
    expect(answer.status).toBe(404)
    unchanged()
  })
})

describe('the link does one thing, by POST only, with the page’s own form', () => {
  it('answers other methods 405 with Allow: POST, changing nothing', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const answer = await rawRequest(server.url, {
        method,
        path: `/order?token=${ana.token}`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '13' },
        body: 'intent=cancel',
      })
      expect([method, answer.status, answer.headers.allow]).toEqual([method, 405, 'POST'])
    }
    const head = await rawRequest(server.url, { method: 'HEAD', path: `/order?token=${ana.token}` })
    expect(head.status).toBe(200)
    unchanged()
  })

  it('refuses a POST without the form’s intent, a JSON body, and one from another site', async () => {
    expect((await cancelAt(`/order?token=${ana.token}`, 'intent=CANCEL')).status).toBe(400)
    expect((await cancelAt(`/order?token=${ana.token}`, '')).status).toBe(400)
    const json = await cancelAt(`/order?token=${ana.token}`, '{"intent":"cancel"}', {
      'Content-Type': 'application/json',
    })
    expect(json.status).toBe(400)
    const crossSite = await cancelAt(`/order?token=${ana.token}`, 'intent=cancel', {
      Origin: 'https://evil.example',
      'Sec-Fetch-Site': 'cross-site',
    })
    expect(crossSite.status).toBe(403)
    unchanged()
  })
})

describe('a cancel is single-purpose and happens once', () => {
  it('cancels the order its link was signed for and no other; replayed, it is refused and the eggs come back once', async () => {
    const before = eggsLeft() as { stock: number }
    const first = await cancelAt(`/order/?token=${ana.token}`)
    expect(first.status).toBe(200)
    expect(first.text).toContain('Your order is cancelled.')
    for (const path of [`/order?token=${ana.token}`, `/ORDER?token=${ana.token}&token=${ben.token}`]) {
      const replayed = await cancelAt(path)
      expect([path, replayed.status]).toEqual([path, 409])
      expect(replayed.text).toContain('This order can no longer be cancelled.')
    }
    expect(statuses()).toEqual([
      { id: ana.orderId, status: 'cancelled' },
      { id: ben.orderId, status: 'confirmed' },
    ])
    expect(cancelledEvents()).toEqual([{ order_id: ana.orderId }])
    expect(eggsLeft()).toEqual({ stock: before.stock + 2 })
  })

  it('shows nothing of the visitor’s address or the team, and no cache keeps the page', async () => {
    const answer = await fetch(`${server.url}/order?token=${ben.token}`)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    const html = await answer.text()
    expect(html.replace(/<!-- -->/g, '')).toContain('For Ben')
    expect(html).not.toContain('ben@example.com')
  })
})
