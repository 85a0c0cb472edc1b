// The lead webhook: each lead (never spam unless asked) posted to WEBHOOK_URL as a Standard
// Webhooks message, checked here by the `standardwebhooks` package on a loopback receiver; retried
// with the same webhook-id until it answers 2xx, across a SIGKILL too.
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import Sqlite from 'better-sqlite3'
import { migrationsFolder, readRows } from '#tests/support/database'
import { openDatabase } from '#app/data/database.server'
import { createOrderLinks } from '#app/orders/order-links.server'
import { dayFromToday, placeOrders } from '#tests/support/orders'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { closeReceivers, receiver, type Received } from '#tests/support/webhook-receiver'

const secret = `whsec_${randomBytes(32).toString('base64')}`
afterEach(closeReceivers)
// Registered after the receivers' hook, so it runs before it: the sites stop first.
const serve = serverPerTest('SIGKILL')

const site = (env: Record<string, string>, databasePath = tempDatabasePath()) =>
  serve({ env: { WEBHOOK_SECRET: secret, ...env }, databasePath })

const lead = { name: 'Ann Baker', email: 'ann@example.com', message: 'Could I order two dozen eggs for Saturday?' }
async function post(server: RunningServer, fields: Record<string, unknown> = {}) {
  const response = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...lead, ...fields }),
  })
  return response.status
}

const verified = (each: Received) =>
  new Webhook(secret).verify(each.body, {
    'webhook-id': String(each.headers['webhook-id']),
    'webhook-timestamp': String(each.headers['webhook-timestamp']),
    'webhook-signature': String(each.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> }

/** The state of each post owed, oldest first, as the database has it. */
const posts = (databasePath: string) =>
  readRows<{ state: string }>(databasePath, "SELECT state FROM deliveries WHERE kind = 'webhook-post' ORDER BY id").map(
    (row) => row.state,
  )

describe('the lead webhook', () => {
  it('posts each lead once, signed as Standard Webhooks says, and never spam', async () => {
    const endpoint = await receiver()
    const server = await site({ WEBHOOK_URL: endpoint.url })
    expect(await post(server, { email: 'bot@example.com', website: 'https://spam.example' })).toBe(202)
    expect(await post(server)).toBe(201)
    await expect.poll(() => endpoint.received.length, { timeout: 10_000 }).toBe(1)
    // The spam is owed no post, and the lead's is marked sent: nothing more can be posted.
    await expect.poll(() => posts(server.databasePath)).toEqual(['sent'])
    expect(endpoint.received).toHaveLength(1)
    const [only] = endpoint.received
    expect(only!.headers['content-type']).toBe('application/json')
    expect(String(only!.headers['webhook-id'])).toMatch(/^msg_[A-Za-z0-9_-]{22}$/)
    const message = verified(only!)
    expect(message).toMatchObject({
      type: 'submission.created',
      data: { name: 'Ann Baker', email: 'ann@example.com', message: lead.message, spam: false },
    })
    expect(message.data.id).toEqual(expect.any(Number))
    expect(message.data.analysis).toMatchObject({ products: expect.arrayContaining(['eggs']) })
    expect(message.timestamp).toBe(message.data.createdAt)
    // A body changed on the way, or signed with another key, does not verify.
    expect(() => verified({ ...only!, body: only!.body.replace('Ann', 'Bob') })).toThrow()
  })

  it('tries again with the same webhook-id until the endpoint answers 2xx', async () => {
    const endpoint = await receiver((n) => (n < 3 ? 500 : 200))
    // The first retry waits NOTIFY_RETRY_SECONDS (30 s by default); one second keeps this test short.
    const server = await site({ WEBHOOK_URL: endpoint.url, NOTIFY_RETRY_SECONDS: '1' })
    expect(await post(server)).toBe(201)
    await expect.poll(() => endpoint.received.length, { timeout: 15_000 }).toBe(3)
    // Marked sent once answered 2xx: it is owed no more tries.
    await expect.poll(() => posts(server.databasePath)).toEqual(['sent'])
    expect(endpoint.received.map((each) => each.answered)).toEqual([500, 500, 200])
    expect(new Set(endpoint.received.map((each) => each.headers['webhook-id'])).size).toBe(1)
    for (const each of endpoint.received) expect(verified(each).type).toBe('submission.created')
  })

  it('delivers a lead once after a SIGKILL while its post waited for an answer, with the same webhook-id', async () => {
    const endpoint = await receiver((n) => (n === 1 ? null : 204))
    const databasePath = tempDatabasePath()
    const first = await site({ WEBHOOK_URL: endpoint.url }, databasePath)
    expect(await post(first)).toBe(201)
    await expect.poll(() => endpoint.received.length, { timeout: 10_000 }).toBe(1)
    await first.stop('SIGKILL')
    await site({ WEBHOOK_URL: endpoint.url }, databasePath)
    await expect.poll(() => endpoint.received.length, { timeout: 10_000 }).toBe(2)
    await expect.poll(() => posts(databasePath)).toEqual(['sent'])
    expect(endpoint.received.map((each) => each.answered)).toEqual([null, 204])
    expect(endpoint.received[0]!.headers['webhook-id']).toBe(endpoint.received[1]!.headers['webhook-id'])
  })

  it('posts spam too, marked as such, with WEBHOOK_INCLUDE_SPAM=true', async () => {
    const endpoint = await receiver()
    const server = await site({ WEBHOOK_URL: endpoint.url, WEBHOOK_INCLUDE_SPAM: 'true' })
    expect(await post(server, { email: 'bot@example.com', website: 'https://spam.example' })).toBe(202)
    await expect.poll(() => endpoint.received.length, { timeout: 10_000 }).toBe(1)
    expect(verified(endpoint.received[0]!).data).toMatchObject({ email: 'bot@example.com', spam: true })
  })

  it('refuses to start with a WEBHOOK_URL that is not http(s), or a WEBHOOK_SECRET that is not one', async () => {
    for (const [env, said] of [
      [{ WEBHOOK_URL: 'ftp://hooks.example' }, /WEBHOOK_URL must be an http/],
      [{ WEBHOOK_URL: 'https://hooks.example', WEBHOOK_SECRET: 'hunter2' }, /WEBHOOK_SECRET must be "whsec_"/],
    ] as const) {
      const server = await serve({ env: { WEBHOOK_SECRET: secret, ...env } }).catch((error: Error) => error)
      expect(server).toBeInstanceOf(Error)
      expect(String((server as Error).message)).toMatch(said)
      // The secret itself is never printed.
      expect(String((server as Error).message)).not.toContain(secret.slice(6))
    }
  })
})

describe('the orders’ webhook', () => {
  it('posts each change of an order once, signed, with the order as the API shows it', async () => {
    const endpoint = await receiver()
    const server = await site({ WEBHOOK_URL: endpoint.url, OWNER_PASSWORD: ownerPassword })
    const [id] = placeOrders(server.databasePath, [
      {
        name: 'Ann Baker',
        email: 'ann@example.com',
        date: dayFromToday(1),
        from: '09:00',
        to: '12:00',
        lines: [{ product: 'eggs', quantity: 2, unit: 'dozen', priceCents: 900 }],
      },
    ])
    const owner = await signInAsOwner(server.url, ownerPassword)
    const marked = await fetch(`${server.url}/api/orders/${id}`, {
      method: 'PATCH',
      headers: { Cookie: owner, 'Content-Type': 'application/json' },
      body: '{"status":"collected"}',
    })
    expect(marked.status).toBe(200)
    const { data: order } = (await marked.json()) as { data: Record<string, unknown> }
    await expect.poll(() => endpoint.received.length, { timeout: 10_000 }).toBe(2)
    await expect.poll(() => posts(server.databasePath)).toEqual(['sent', 'sent'])
    const messages = endpoint.received.map(verified)
    expect(messages.map((message) => message.type)).toEqual(['order.confirmed', 'order.collected'])
    // Posted once each, as it is now: the API's own view.
    expect(messages.map((message) => message.data)).toEqual([{ order }, { order }])
    expect(order).toMatchObject({ id, name: 'Ann Baker', status: 'collected', totalCents: 900 })
    expect(messages[1]!.timestamp).toBe(order.changedAt)
    const ids = endpoint.received.map((each) => String(each.headers['webhook-id']))
    expect(new Set(ids).size).toBe(2)
  })

  it('posts order.cancelled when the visitor cancels by their order’s link', async () => {
    const endpoint = await receiver()
    const server = await site({ WEBHOOK_URL: endpoint.url, OWNER_PASSWORD: ownerPassword })
    const [id] = placeOrders(server.databasePath, [
      { name: 'Ann Baker', date: dayFromToday(7), lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }] },
    ])
    const database = openDatabase(server.databasePath, migrationsFolder)
    const link = createOrderLinks({ db: database.db, publicUrl: () => server.url }).url(id!)
    database.close()
    const cancelled = await fetch(link, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'intent=cancel',
    })
    expect(cancelled.status).toBe(200)
    await expect.poll(() => endpoint.received.length, { timeout: 10_000 }).toBe(2)
    const messages = endpoint.received.map(verified)
    expect(messages.map((message) => message.type)).toEqual(['order.confirmed', 'order.cancelled'])
    expect(messages[1]!.data).toMatchObject({ order: { id, status: 'cancelled', name: 'Ann Baker' } })
  })

  it('owes an order’s post while no webhook is set: it waits, and goes with its order', async () => {
    const server = await serve()
    placeOrders(server.databasePath, [
      { name: 'Ann Baker', date: dayFromToday(1), lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }] },
    ])
    expect(posts(server.databasePath)).toEqual(['queued'])
    const sqlite = new Sqlite(server.databasePath)
    sqlite.pragma('foreign_keys = ON')
    sqlite.pragma('busy_timeout = 5000')
    sqlite.prepare('DELETE FROM orders').run()
    sqlite.close()
    expect(posts(server.databasePath)).toEqual([])
  })
})
