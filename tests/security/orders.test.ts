// The card's order forms: a stranger's message reaches no one and takes nothing; no one but a
// signed-in person of the team may confirm; every forged field, odd number, other method and
// other site's page is refused in words, and then nothing is stored, taken or mailed.
import Sqlite from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { dayFromToday, eggsAndHoney, orderForm, pageWords, postOrderLead, setWeekList } from '#tests/support/orders'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'
import { addPerson } from '#tests/support/team'

const ann = { name: 'Ann Baker', email: 'ann@example.com', message: 'Two dozen eggs and 3 jars of honey, please' }
const day = dayFromToday(2)
const good: Array<[string, string, string]> = [
  ['eggs', '2', 'dozen'],
  ['honey', '3', 'jar'],
]

function post(
  server: RunningServer,
  body: string,
  { cookie = '', method = 'POST', path = '/farm-sales', headers = {} } = {},
) {
  return rawRequest(server.url, {
    method,
    path,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': String(Buffer.byteLength(body)),
      ...(cookie ? { Cookie: cookie } : {}),
      ...headers,
    },
    body,
  })
}

/** Nothing an order takes or owes: no order, the stock as set, no mail to anyone. */
function nothingTaken(server: RunningServer) {
  expect(readRows(server.databasePath, 'SELECT count(*) AS n FROM orders')).toEqual([{ n: 0 }])
  expect(readRows(server.databasePath, 'SELECT count(*) AS n FROM order_events')).toEqual([{ n: 0 }])
  expect(readRows(server.databasePath, "SELECT stock FROM week_list WHERE product = 'eggs'")).toEqual([{ stock: 5 }])
  expect(readRows(server.databasePath, 'SELECT count(*) AS n FROM replies')).toEqual([{ n: 0 }])
}

const siteEnv = {
  OWNER_PASSWORD: ownerPassword,
  // Mail is set up (to nowhere that answers): every refusal here is the order's, not mail's.
  SMTP_URL: 'smtp://127.0.0.1:9',
  NOTIFY_EMAIL: 'owner@bramble.example',
  FARM_PRODUCTS: 'eggs, honey',
  TRUST_PROXY: 'loopback',
}

describe('a stranger', () => {
  const serve = serverPerFile()
  let server: RunningServer
  let id: number
  beforeAll(async () => {
    server = await serve({ env: siteEnv })
    setWeekList(server.databasePath, [
      { product: 'eggs', priceCents: 400, unit: 'a dozen', stock: 5 },
      { product: 'honey', priceCents: 550, unit: 'a jar', stock: null },
    ])
    id = await postOrderLead(server, ann, eggsAndHoney(day))
  })

  it('whose message reads as an order takes no stock and is sent nothing', () => {
    nothingTaken(server)
    expect(readRows(server.databasePath, "SELECT count(*) AS n FROM deliveries WHERE kind = 'visitor-mail'")).toEqual([
      { n: 0 },
    ])
  })

  it('who posts the card’s confirmation is sent to sign in, on every spelling, and nothing is taken', async () => {
    const body = orderForm(id, 'order-confirm', { lines: good, date: day, text: 'Yours' }).toString()
    for (const path of ['/farm-sales', '/farm%2Dsales', '/FARM-SALES', '/farm-sales?_data=routes%2Ffarm-sales']) {
      const answer = await post(server, body, { path })
      expect({ path, redirected: [302, 204].includes(answer.status) }).toEqual({ path, redirected: true })
      expect(String(answer.headers.location ?? answer.headers['x-remix-redirect'])).toMatch(/^\/sign-in/)
    }
    nothingTaken(server)
  })
})

describe('the team’s forms, forged', () => {
  const serve = serverPerFile()
  let server: RunningServer
  let helper: string
  let id: number
  beforeAll(async () => {
    server = await serve({ env: siteEnv })
    setWeekList(server.databasePath, [
      { product: 'eggs', priceCents: 400, unit: 'a dozen', stock: 5 },
      { product: 'honey', priceCents: 550, unit: 'a jar', stock: null },
    ])
    id = await postOrderLead(server, ann, eggsAndHoney(day))
    const owner = await signInAsOwner(server.url, ownerPassword)
    helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
  })

  const confirm =
    (over: Parameters<typeof orderForm>[2] = {}, leadId = () => String(id)) =>
    () => {
      const form = orderForm(id, 'order-confirm', { lines: good, date: day, text: 'Yours: {order link}', ...over })
      form.set('id', leadId())
      return form.toString()
    }

  it.each([
    ['a product not on the list', confirm({ lines: [['flour', '1', 'bag']] }), 400, 'Choose each line’s product'],
    ['a negative quantity', confirm({ lines: [['eggs', '-1', 'dozen']] }), 400, 'A quantity is a number'],
    ['a huge quantity', confirm({ lines: [['eggs', '99999999', 'dozen']] }), 400, 'A quantity is a number'],
    ['a quantity in exponent', confirm({ lines: [['eggs', '1e9', 'dozen']] }), 400, 'A quantity is a number'],
    ['NaN', confirm({ lines: [['eggs', 'NaN', 'dozen']] }), 400, 'A quantity is a number'],
    ['Infinity', confirm({ lines: [['eggs', 'Infinity', 'dozen']] }), 400, 'A quantity is a number'],
    ['a ten-thousandth', confirm({ lines: [['eggs', '0.0001', 'dozen']] }), 400, 'A quantity is a number'],
    ['a unit with markup', confirm({ lines: [['eggs', '1', '<b>dozen</b>']] }), 400, 'A unit is a word'],
    ['more than is left', confirm({ lines: [['eggs', '6', 'dozen']] }), 409, 'only 5 dozen left'],
    ['stock counted otherwise', confirm({ lines: [['eggs', '2', 'jar']] }), 409, 'write the line in that unit'],
    [
      'lines without their quantities',
      () => `${confirm()()}&product=eggs`,
      400,
      'An order has at most 20 lines, each a product',
    ],
    [
      'thirty lines',
      confirm({ lines: Array.from({ length: 30 }, (): [string, string, string] => ['honey', '1', 'jar']) }),
      400,
      'An order has at most 20 lines',
    ],
    ['a day gone', confirm({ date: '2020-01-01' }), 400, 'That pick-up day has passed'],
    ['two days', () => `${confirm()()}&date=${day}`, 400, 'Send the form’s fields as text'],
    ['a time that is not one', confirm({ from: '25:00' }), 400, 'A pick-up time is written as 09:00.'],
    ['a control character in the words', confirm({ text: 'Yours\u0007' }), 400, 'not control characters'],
    ['an id in exponent', confirm({}, () => '1e0'), 400, 'That submission is not one the inbox knows.'],
    ['a negative id', confirm({}, () => '-1'), 400, 'That submission is not one the inbox knows.'],
    ['an id no lead has', confirm({}, () => '999999'), 404, 'That lead is no longer here.'],
  ])('refuses %s (%i), saying so, and takes nothing', async (_what, body, status, words) => {
    const answer = await post(server, body(), { cookie: helper })
    expect(answer.status).toBe(status)
    expect(pageWords(answer.text)).toContain(words)
    nothingTaken(server)
  })

  it('refuses a file where a quantity goes', async () => {
    const form = new FormData()
    for (const [name, value] of Object.entries({
      intent: 'order-confirm',
      id: String(id),
      product: 'eggs',
      unit: 'dozen',
      date: day,
      text: 'Yours',
    }))
      form.append(name, value)
    form.append('quantity', new Blob(['2']), 'two.txt')
    const response = await fetch(`${server.url}/farm-sales`, {
      method: 'POST',
      headers: { Cookie: helper },
      body: form,
    })
    expect(response.status).toBe(400)
    expect(pageWords(await response.text())).toContain('Send the form’s fields as text, not as files.')
    nothingTaken(server)
  })

  it('refuses an order for a message in the spam folder', async () => {
    const spam = await postOrderLead(server, { ...ann, email: 'spam@example.com' }, eggsAndHoney(day))
    const sqlite = new Sqlite(server.databasePath)
    sqlite.prepare(`UPDATE submissions SET spam_reasons = '["links"]' WHERE id = ?`).run(spam)
    sqlite.close()
    const answer = await post(server, confirm({}, () => String(spam))(), { cookie: helper })
    expect(answer.status).toBe(409)
    expect(pageWords(answer.text)).toContain('This message is in the spam folder')
    nothingTaken(server)
  })

  it('refuses on the week’s list a count of what is left that is not one, keeping the count', async () => {
    for (const stock of ['-1', 'NaN', 'Infinity', '1e9', '2000000', '0x10', '1.2345']) {
      const body = new URLSearchParams({
        product: 'eggs',
        availability: 'available',
        price: '4',
        unit: 'a dozen',
        stock,
      })
      const answer = await post(server, body.toString(), { cookie: helper, path: '/farm-sales/this-week' })
      expect({ stock, status: answer.status }).toEqual({ stock, status: 400 })
      expect(pageWords(answer.text)).toContain('What is left is a number such as 12 or 2.5')
    }
    nothingTaken(server)
  })

  it.each(['PUT', 'PATCH', 'DELETE'])('refuses %s with 405', async (method) => {
    const answer = await post(server, confirm()(), { cookie: helper, method })
    expect(answer.status).toBe(405)
    nothingTaken(server)
  })

  it('refuses another site’s page posting it', async () => {
    const answer = await post(server, confirm()(), {
      cookie: helper,
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    })
    expect(answer.status).toBe(403)
    nothingTaken(server)
  })
})

describe('an open inbox (no OWNER_PASSWORD)', () => {
  const serve = serverPerFile()
  it('lets no one confirm: the order mails the visitor as the farm', async () => {
    const server = await serve({ env: { FARM_PRODUCTS: 'eggs, honey' } })
    setWeekList(server.databasePath, [
      { product: 'eggs', priceCents: 400, unit: 'a dozen', stock: 5 },
      { product: 'honey', priceCents: 550, unit: 'a jar', stock: null },
    ])
    const id = await postOrderLead(server, ann, eggsAndHoney(day))
    const answer = await post(
      server,
      orderForm(id, 'order-confirm', { lines: good, date: day, text: 'Yours' }).toString(),
    )
    expect(answer.status).toBe(403)
    expect(pageWords(answer.text)).toContain('claim the site first')
    nothingTaken(server)
  })
})
