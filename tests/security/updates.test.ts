// Updates mail every subscriber as the farm: only the signed-in owner, only with OWNER_PASSWORD set,
// on every spelling and method; bad input is refused with a clear answer and nothing stored or sent;
// the confirm and unsubscribe links hold only for their own mailbox and purpose, and a broken one
// is a friendly page that changes nothing; the confirm mail a stranger can trigger is capped.
import Sqlite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import { freePort, type RunningServer } from '#tests/support/server'
import { serverPerFile, serverPerTest, type StartServer } from '#tests/support/server-per-test'
import { readRows } from '#tests/support/database'

let mail: MailServer
let server: RunningServer
let cookie: string
let ownerless: RunningServer

afterAll(() => mail?.close())
// Registered after the mail server's hook, so they run before it: the sites stop first.
const shared = serverPerFile('SIGKILL')
const serve = serverPerTest('SIGKILL')

/** A site with updates on: one of the test's own, or with `shared`, one of the file's. */
async function withUpdates(env: Record<string, string> = {}, start: StartServer = serve) {
  const port = await freePort()
  return start({
    port,
    env: {
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: 'owner@bramble.example',
      UPDATES: 'true',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TRUST_PROXY: 'loopback',
      ...env,
    },
  })
}

beforeAll(async () => {
  mail = await startMailServer()
  ;[server, ownerless] = await Promise.all([withUpdates({ OWNER_PASSWORD: password }, shared), withUpdates({}, shared)])
  cookie = await signInAsOwner(server.url, password)
  const sqlite = new Sqlite(server.databasePath)
  sqlite
    .prepare(
      `INSERT INTO subscribers (email, address_key, name, status, consent, added_by, subscribed_at, created_at)
       VALUES ('ann@example.com', 'ann@example.com', 'Ann', 'subscribed', 'at the stall', 'owner', 1, 1)`,
    )
    .run()
  sqlite.close()
})

function count(target: RunningServer, table: string): number {
  const sqlite = new Sqlite(target.databasePath, { readonly: true })
  try {
    return (sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
  } finally {
    sqlite.close()
  }
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  headers: { 'Content-Type': 'application/json', Cookie: cookie, ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})

describe('who may send updates', () => {
  it('answers 401 in JSON to anyone not signed in, on every spelling of the API', async () => {
    // Runs of slashes are one spelling of the API too.
    for (const path of [
      '/api/updates',
      '/API/Updates',
      '/api/updates/',
      '/api/%75pdates',
      '/api//updates',
      '//api/updates',
    ]) {
      const answer = await rawRequest(server.url, {
        path,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ subject: 'Hi', text: 'Hello' }),
      })
      expect(JSON.parse(answer.text), path).toEqual({ error: 'Sign in as one of the farm’s team to send updates.' })
      expect(answer.status, path).toBe(401)
    }
    for (const path of ['/api/updates', '/api/updates/1', '/api/updates/audience']) {
      expect((await rawRequest(server.url, { method: 'GET', path })).status, path).toBe(401)
    }
    expect(count(server, 'updates')).toBe(0)
  })

  it('refuses (403, naming OWNER_PASSWORD) when the inbox is open to all, and the page only explains', async () => {
    for (const method of ['GET', 'POST']) {
      const answer = await rawRequest(ownerless.url, {
        method,
        path: '/api/updates',
        headers: { 'Content-Type': 'application/json' },
        ...(method === 'GET' ? {} : { body: JSON.stringify({ subject: 'Hi', text: 'Hello' }) }),
      })
      expect(answer.status, method).toBe(403)
      expect(JSON.parse(answer.text).error, method).toMatch(/^To send updates, claim the site first/)
    }
    const page = await fetch(`${ownerless.url}/farm-sales/updates`)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(
      'To send updates, claim the site first: an open inbox must never let a stranger mail every subscriber.',
    )
    expect(html).not.toContain('New update')
    const posted = await rawRequest(ownerless.url, {
      path: '/farm-sales/updates',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'intent=send&subject=Hi&text=Hello',
    })
    expect(posted.status).toBe(403)
    expect(count(ownerless, 'updates')).toBe(0)
  })

  it('runs no update for PUT, PATCH or DELETE, which Remix would run as actions', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      for (const path of ['/api/updates', '/farm-sales/updates']) {
        const body = path.startsWith('/api')
          ? JSON.stringify({ subject: 'Hi', text: 'Hello' })
          : 'intent=send&subject=Hi&text=Hello'
        const answer = await rawRequest(server.url, {
          method,
          path,
          headers: {
            'Content-Type': path.startsWith('/api') ? 'application/json' : 'application/x-www-form-urlencoded',
            'Content-Length': String(Buffer.byteLength(body)),
            Cookie: cookie,
          },
          body,
        })
        expect(answer.status, `${method} ${path}`).toBe(405)
      }
    }
    expect(count(server, 'updates')).toBe(0)
  })
})

describe('bad updates', () => {
  it.each([
    ['an empty subject', { subject: '', text: 'Hello' }, 'Write a subject first.'],
    ['a blank subject', { subject: ' \t ', text: 'Hello' }, 'Write a subject first.'],
    [
      'a subject of 201 characters',
      { subject: 'x'.repeat(201), text: 'Hello' },
      /at most 200 characters; this one has 201/,
    ],
    ['a blank text', { subject: 'Eggs', text: '   ' }, 'Write the update’s text first.'],
    [
      'a text of 50,001 characters',
      { subject: 'Eggs', text: 'x'.repeat(50_001) },
      /at most 50,000 characters; this one has 50,001/,
    ],
    ['an unknown product', { subject: 'Eggs', text: 'Hi', products: ['caviar'] }, /There is no product “caviar”/],
    ['an unknown intent', { subject: 'Eggs', text: 'Hi', intents: ['spam'] }, /There is no intent “spam”/],
    [
      'an audience of nobody',
      { subject: 'Eggs', text: 'Hi', products: ['honey'] },
      /No subscriber asked about what you chose/,
    ],
    [
      'a subject split by a line separator',
      { subject: 'Eggs\u2028Bcc: x', text: 'Hi' },
      'A subject is one line, without tabs.',
    ],
    ['a subject with a C1 control', { subject: 'Eggs\u0085now', text: 'Hi' }, /not control characters/],
    ['a subject that is a number', { subject: 7, text: 'Hi' }, /Send the update as/],
    ['products that are not a list', { subject: 'Eggs', text: 'Hi', products: 'eggs' }, /Send the update as/],
    [
      '51 products',
      { subject: 'Eggs', text: 'Hi', products: Array.from({ length: 51 }, (_, n) => `p${n}`) },
      /Send the update as/,
    ],
    ['a list', '[1, 2]', /Send the update as/],
    ['broken JSON', '{"subject": "Eggs", ', /JSON/],
  ])('refuses %s with a clear 400 and stores nothing', async (_name, body, error) => {
    const answer = await fetch(`${server.url}/api/updates`, { method: 'POST', ...json(body) })
    expect(answer.status).toBe(400)
    expect(((await answer.json()) as { error: string }).error).toMatch(error)
    expect(count(server, 'updates')).toBe(0)
    expect(count(server, 'deliveries')).toBe(0)
  })

  it('refuses a malformed Idempotency-Key and another media type', async () => {
    const keyed = await fetch(`${server.url}/api/updates`, {
      method: 'POST',
      ...json({ subject: 'Eggs', text: 'Hi' }, { 'Idempotency-Key': 'a b' }),
    })
    expect(keyed.status).toBe(400)
    const plain = await fetch(`${server.url}/api/updates`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Cookie: cookie },
      body: 'subject=Eggs',
    })
    expect(plain.status).toBe(415)
    expect(count(server, 'updates')).toBe(0)
  })

  it('lets 50,000 characters through the body limit, even as JSON escapes and form-encoded emoji', async () => {
    const text = '🥚'.repeat(50_000)
    const escaped = JSON.stringify({ subject: 'Eggs', text, products: ['eggs'] }).replace(
      /[\u{10000}-\u{10ffff}]/gu,
      (emoji) => `\\u${emoji.charCodeAt(0).toString(16)}\\u${emoji.charCodeAt(1).toString(16)}`,
    )
    expect(escaped.length).toBeGreaterThan(600_000)
    // Nobody asked about eggs: the text is read and judged, not cut off at the door.
    const answer = await fetch(`${server.url}/api/updates`, { method: 'POST', ...json(escaped) })
    expect(answer.status).toBe(400)
    expect(((await answer.json()) as { error: string }).error).toMatch(/No subscriber asked about what you chose/)
    const page = await fetch(`${server.url}/farm-sales/updates`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
      body: new URLSearchParams({ intent: 'review', subject: 'Eggs', text }).toString(),
    })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Send “Eggs” to 1 subscriber now?')
    // A stranger's body stays at 16 KB.
    const stranger = await rawRequest(server.url, {
      path: '/api/updates',
      headers: { 'Content-Type': 'application/json' },
      body: escaped.slice(0, 100_000),
    })
    expect(stranger.status).toBe(413)
    expect(count(server, 'updates')).toBe(0)
  })

  it('refuses the no-JavaScript form’s bad updates on the page, storing nothing', async () => {
    const answer = await fetch(`${server.url}/farm-sales/updates`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
      body: new URLSearchParams({ intent: 'send', subject: '', text: 'Hi', requestKey: 'form-key-0001' }).toString(),
    })
    expect(answer.status).toBe(400)
    expect(await answer.text()).toContain('Not sent: Write a subject first.')
    expect(count(server, 'updates')).toBe(0)
  })
})

describe('confirm and unsubscribe links', () => {
  const broken = [
    '',
    'abc',
    '1',
    '1.2',
    '1.zz.AAAA',
    `1.${'A'.repeat(43)}`,
    `1.m0.${'A'.repeat(43)}`,
    `99999999999999999999.${'A'.repeat(43)}`,
    `1.${'A'.repeat(43)}%00`,
    'x'.repeat(5_000),
    '../../farm-sales',
  ]

  it('answers every forged, cut or strange token with a friendly 400 page on GET and POST, changing nothing', async () => {
    for (const path of ['/updates/confirm', '/updates/unsubscribe']) {
      for (const token of broken) {
        for (const method of ['GET', 'POST']) {
          const answer = await rawRequest(server.url, {
            method,
            path: `${path}?token=${encodeURIComponent(token)}`,
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            ...(method === 'POST' ? { body: 'List-Unsubscribe=One-Click' } : {}),
          })
          expect(answer.status, `${method} ${path} ${token.slice(0, 20)}`).toBe(400)
          expect(answer.text).toContain('This link does not work')
          expect(answer.text).toContain('Nothing was changed.')
          expect(answer.text).not.toMatch(/at \w+ \(|node_modules/)
        }
      }
    }
    const sqlite = new Sqlite(server.databasePath, { readonly: true })
    expect(sqlite.prepare('SELECT status FROM subscribers').all()).toEqual([{ status: 'subscribed' }])
    sqlite.close()
  })

  it('asks at most three addresses an hour for one sender, whatever they type', async () => {
    const target = await withUpdates({ OWNER_PASSWORD: password })
    for (let n = 0; n < 5; n++) {
      const answer = await fetch(`${target.url}/api/submissions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.7' },
        body: JSON.stringify({ name: 'Ann', email: `victim${n}@example.com`, message: 'Could I order some eggs?' }),
      })
      expect(answer.status).toBe(201)
    }
    // Each mail is written in its lead's transaction, done before the 201; none waits to be read
    // again (the one later path that could owe one), so the count is final.
    expect(
      readRows(target.databasePath, 'SELECT count(*) AS n FROM submissions WHERE reanalyse_at IS NOT NULL'),
    ).toEqual([{ n: 0 }])
    expect(count(target, 'replies')).toBe(3)
    expect(count(target, 'subscribers')).toBe(3)
  })
})

describe('the unasked mails and the way back', () => {
  it('counts the question about updates in the hour’s cap of unasked mails, whoever sends the leads', async () => {
    const target = await withUpdates({ OWNER_PASSWORD: password })
    for (let n = 0; n < 62; n++) {
      const answer = await fetch(`${target.url}/api/submissions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.9.${n}.7` },
        body: JSON.stringify({
          name: 'Vic',
          email: `victim${n}@example.org`,
          message: 'Do you sell raw honey in jars?',
        }),
      })
      expect(answer.status).toBe(201)
    }
    expect(
      readRows(target.databasePath, 'SELECT count(*) AS n FROM submissions WHERE reanalyse_at IS NOT NULL'),
    ).toEqual([{ n: 0 }])
    expect(count(target, 'replies')).toBe(60)
  })

  it('lets only their own same-site Undo, within the day of their own unsubscribe, subscribe them again', async () => {
    const target = await withUpdates({ OWNER_PASSWORD: password })
    const ownerCookie = await signInAsOwner(target.url, password)
    for (const email of ['ann@example.com', 'ben@example.com']) {
      await fetch(`${target.url}/farm-sales/updates`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: ownerCookie },
        body: new URLSearchParams({ intent: 'add', email, name: '', note: 'at the stall' }).toString(),
      })
    }
    const sent = await fetch(`${target.url}/api/updates`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: ownerCookie },
      body: JSON.stringify({ subject: 'Undo test', text: 'Hello' }),
    })
    expect(sent.status).toBe(202)
    const toOf = (sent: (typeof mail.mails)[number]) => (Array.isArray(sent.to) ? '' : sent.to?.value[0]?.address)
    const linkFor = async (email: string) => {
      const find = () => mail.mails.find((each) => each.subject === 'Undo test' && toOf(each) === email)
      await expect.poll(() => find() !== undefined, { timeout: 10_000 }).toBe(true)
      return /Unsubscribe in one click: (\S+)/.exec(find()!.text!)![1]!
    }
    const statusOf = (email: string) => {
      const sqlite = new Sqlite(target.databasePath, { readonly: true })
      try {
        return (sqlite.prepare('SELECT status FROM subscribers WHERE email = ?').get(email) as { status: string })
          .status
      } finally {
        sqlite.close()
      }
    }
    const annLink = await linkFor('ann@example.com')
    const benLink = await linkFor('ben@example.com')
    const undo = (link: string, headers: Record<string, string> = {}) =>
      fetch(link, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: 'intent=undo',
      })

    // Ann leaves by her link; another site's page cannot post her Undo, nor can it pass for One-Click.
    expect(
      (await fetch(annLink, { method: 'POST', body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) })).status,
    ).toBe(200)
    expect(statusOf('ann@example.com')).toBe('unsubscribed')
    expect((await undo(annLink, { Origin: 'https://elsewhere.example' })).status).toBe(403)
    expect(
      (
        await fetch(annLink, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://elsewhere.example' },
          body: 'List-Unsubscribe=One-Click&intent=undo',
        })
      ).status,
    ).toBe(403)
    expect(statusOf('ann@example.com')).toBe('unsubscribed')

    // The owner takes Ben off: his old link offers no Undo, and a posted one changes nothing.
    const benId = new URL(benLink).searchParams.get('token')!.split('.')[0]!
    await fetch(`${target.url}/farm-sales/updates`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: ownerCookie },
      body: new URLSearchParams({ intent: 'remove', id: benId }).toString(),
      redirect: 'manual',
    })
    expect(statusOf('ben@example.com')).toBe('unsubscribed')
    const page = await (await fetch(benLink)).text()
    expect(page).toContain('You are unsubscribed')
    expect(page).not.toContain('Undo: send me updates again')
    expect((await undo(benLink)).status).toBe(200)
    expect(statusOf('ben@example.com')).toBe('unsubscribed')

    // Ann's own Undo from the page, the same day, works.
    expect(await (await undo(annLink)).text()).toContain('You are subscribed again')
    expect(statusOf('ann@example.com')).toBe('subscribed')
  })
})
