// This week's list is on the public page: only the signed-in team changes it. 'Tell me when it's
// ready' is a door anyone can knock on with anyone's address: it is the form's own door (its limit,
// traps and checks), each mailbox waits once a product, and the confirm mails it can trigger are
// capped per mailbox and per sender by a record in the database, so a restart gives no one more.
// The news of a product is sent only by the owner's Send, once a product a season.
import Sqlite from 'better-sqlite3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { freePort, type RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'
import { addPerson } from '#tests/support/team'

let mail: MailServer
let server: RunningServer
let cookie: string
let port: number
afterAll(() => mail?.close())
const serve = serverPerFile('SIGKILL')

const start = (databasePath?: string) =>
  serve({
    port,
    ...(databasePath ? { databasePath } : {}),
    env: {
      OWNER_PASSWORD: password,
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: 'owner@bramble.example',
      UPDATES: 'true',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TRUST_PROXY: 'loopback',
      SUBMISSION_RATE_LIMIT: '200',
    },
  })

beforeAll(async () => {
  mail = await startMailServer()
  port = await freePort()
  server = await start()
  cookie = await signInAsOwner(server.url, password)
})

const rows = (sql: string) => {
  const sqlite = new Sqlite(server.databasePath, { readonly: true })
  try {
    return sqlite.prepare(sql).all()
  } finally {
    sqlite.close()
  }
}

const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  })

const setWeek = (product: string, availability: string, who = cookie) =>
  post(
    '/farm-sales/this-week',
    { product, availability, price: '5', unit: 'a punnet', note: '', readyFrom: '' },
    { Cookie: who },
  )

const tellMe = (product: string, email: string, from = '198.51.100.7') =>
  post('/this-week/tell-me', { product, name: 'Ann Baker', email }, { 'X-Forwarded-For': from })

it('keeps strangers and bad edits off the week’s list', async () => {
  const stranger = await setWeek('strawberries', 'available', 'farm_session=forged')
  expect(stranger.status).not.toBe(303)
  expect(rows('SELECT * FROM week_list')).toEqual([])
  for (const [product, availability] of [
    ['STRAWBERRIES', 'available'],
    ['strawberries ', 'available'],
    ['caviar', 'available'],
    ['strawberries', 'Available'],
    ['strawberries', 'in-stock'],
  ] as const) {
    expect((await setWeek(product, availability)).status).toBe(400)
  }
  const tooLong = await post(
    '/farm-sales/this-week',
    { product: 'eggs', availability: 'available', price: '4', unit: 'x'.repeat(31), note: '' },
    { Cookie: cookie },
  )
  expect(tooLong.status).toBe(400)
  for (const price of ['-4', '4e3', '1/2', '0x10', '999999']) {
    const answer = await post(
      '/farm-sales/this-week',
      { product: 'eggs', availability: 'available', price },
      { Cookie: cookie },
    )
    expect(answer.status).toBe(400)
  }
  const script = await post(
    '/farm-sales/this-week',
    { product: 'eggs', availability: 'available', price: '4', unit: 'a dozen', note: '<script>alert(1)</script>' },
    { Cookie: cookie },
  )
  expect(script.status).toBe(303)
  const home = await (await fetch(`${server.url}/`)).text()
  expect(home).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  expect(home).not.toContain('<script>alert(1)</script>')
})

it('refuses tell-me asks for products not waiting, in any spelling, method or size', async () => {
  expect((await setWeek('strawberries', 'coming-soon')).status).toBe(303)
  for (const product of ['eggs', 'STRAWBERRIES', 'strawberries\u0000', 'caviar', '']) {
    expect((await tellMe(product, 'probe@example.com')).status).toBe(400)
  }
  expect(
    (await post('/this-week/tell-me', { product: 'strawberries', name: 'x'.repeat(101), email: 'a@example.com' }))
      .status,
  ).toBe(400)
  expect((await tellMe('strawberries', `${'a'.repeat(250)}@example.com`)).status).toBe(400)
  expect((await fetch(`${server.url}/this-week/tell-me`, { method: 'PUT' })).status).toBe(405)
  const huge = await fetch(`${server.url}/this-week/tell-me`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `product=strawberries&name=${'a'.repeat(2_000_000)}`,
  })
  expect(huge.status).toBe(413)
  expect(rows('SELECT * FROM product_waits')).toEqual([])
})

it('waits once a mailbox a product, and caps the confirm mails per mailbox and per sender across a restart', async () => {
  await setWeek('honey', 'sold-out')
  // The same ask again (a replay), and in other spellings of the same mailbox.
  for (const [product, email] of [
    ['strawberries', 'ann@example.com'],
    ['strawberries', 'ann@example.com'],
    ['strawberries', 'ANN@Example.com'],
    ['honey', 'ann@example.com'],
  ] as const) {
    expect((await tellMe(product, email)).status).toBe(200)
  }
  expect(rows("SELECT product FROM product_waits WHERE address_key = 'ann@example.com' ORDER BY product")).toEqual([
    { product: 'honey' },
    { product: 'strawberries' },
  ])
  const asks = () => rows("SELECT to_address FROM replies WHERE kind = 'confirmation'").length
  // One confirm mail to that mailbox a day, however many asks.
  expect(asks()).toBe(1)
  // One sender asking for five other people: three confirm mails an hour, no more.
  for (const n of [1, 2, 3, 4, 5]) await tellMe('strawberries', `other${n}@example.com`, '203.0.113.9')
  expect(asks()).toBe(4)
  await server.stop('SIGKILL')
  server = await start(server.databasePath)
  for (const n of [6, 7])
    expect((await tellMe('strawberries', `other${n}@example.com`, '203.0.113.9')).status).toBe(200)
  expect(asks()).toBe(4)
  // A wait whose address never confirmed, past its confirm link's week, goes at the next ask.
  const sqlite = new Sqlite(server.databasePath)
  sqlite
    .prepare(
      "INSERT INTO product_waits (product, email, address_key, asked_at) VALUES ('honey', 'old@example.com', 'old@example.com', 1)",
    )
    .run()
  sqlite.close()
  await tellMe('honey', 'other8@example.com', '203.0.113.10')
  expect(rows("SELECT * FROM product_waits WHERE address_key = 'old@example.com'")).toEqual([])
  expect(rows("SELECT * FROM product_waits WHERE address_key = 'ann@example.com'")).toHaveLength(2)
})

it('sends the news only on the owner’s Send, once a product a season, never to a stranger’s post', async () => {
  const sqlite = new Sqlite(server.databasePath)
  sqlite
    .prepare(
      "UPDATE subscribers SET status = 'subscribed', consent = 'yes', subscribed_at = 1 WHERE address_key = 'ann@example.com'",
    )
    .run()
  sqlite.close()
  cookie = await signInAsOwner(server.url, password)
  expect((await setWeek('strawberries', 'available')).status).toBe(303)
  expect(rows('SELECT * FROM updates')).toEqual([])
  const news = { product: 'strawberries', subject: 'Strawberries are ready', text: 'Come and pick.' }
  const stranger = await post('/farm-sales/this-week/news', news, { Cookie: 'farm_session=forged' })
  expect(stranger.status).not.toBe(303)
  expect(rows('SELECT * FROM updates')).toEqual([])
  expect((await post('/farm-sales/this-week/news', { ...news, product: 'honey' }, { Cookie: cookie })).status).toBe(400)
  expect((await post('/farm-sales/this-week/news', news, { Cookie: cookie })).status).toBe(303)
  expect((await post('/farm-sales/this-week/news', news, { Cookie: cookie })).status).toBe(409)
  expect(rows('SELECT recipients FROM updates')).toEqual([{ recipients: 1 }])
  expect(rows('SELECT product, address_key FROM product_news')).toEqual([
    { product: 'strawberries', address_key: 'ann@example.com' },
  ])
})

it('lets a helper update the list but not send its news, and the open inbox change nothing', async () => {
  const helper = await addPerson(server.url, cookie, {
    name: 'Sam Field',
    email: 'sam@bramble.example',
    role: 'helper',
  })
  expect((await setWeek('eggs', 'few-left', helper)).status).toBe(303)
  expect(rows("SELECT availability FROM week_list WHERE product = 'eggs'")).toEqual([{ availability: 'few-left' }])
  expect(rows("SELECT detail FROM activity WHERE kind = 'week-changed' ORDER BY id DESC LIMIT 1")).toEqual([
    { detail: 'This week’s list: Eggs, Few left, €5 a punnet' },
  ])
  const news = { product: 'eggs', subject: 'Eggs are back', text: 'Come and get them.' }
  const refused = await post('/farm-sales/this-week/news', news, { Cookie: helper })
  expect(refused.status).toBe(403)
  expect(await refused.text()).toContain('Only an owner may send updates; you are signed in as a helper.')

  const open = await serve({ env: {} })
  const answer = await fetch(`${open.url}/farm-sales/this-week`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ product: 'eggs', availability: 'available' }),
    redirect: 'manual',
  })
  expect(answer.status).toBe(403)
  expect(await answer.text()).toContain('claim the site first')
  // Without the updates there is no confirm mail: no one may ask to be told.
  const ask = await fetch(`${open.url}/this-week/tell-me`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ product: 'eggs', name: 'Ann Baker', email: 'ann@example.com' }),
  })
  expect(ask.status).toBe(403)
  const sqlite = new Sqlite(open.databasePath, { readonly: true })
  expect(sqlite.prepare('SELECT count(*) FROM week_list').pluck().get()).toBe(0)
  expect(sqlite.prepare('SELECT count(*) FROM submissions').pluck().get()).toBe(0)
  sqlite.close()
})
