// Attacks on the settings: other spellings of the API and the page, other methods, sizes and
// encodings, header injection through a stored value, a replayed test, a restored file's rows,
// and the secrets in answers, exports and logs.
import { createECDH, randomBytes } from 'node:crypto'
import Sqlite from 'better-sqlite3'
import { SMTPServer } from 'smtp-server'
import { afterEach, describe, expect, it } from 'vitest'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import { readRows } from '#tests/support/database'
import { freePort, tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const mailPassword = 'secret-Hay-42!'
const mailServers: MailServer[] = []

afterEach(async () => {
  for (const mail of mailServers.splice(0)) await mail.close()
})
// Registered after the mail servers' hook, so it runs before it: the sites stop first.
const serve = serverPerTest('SIGKILL')

async function site(env: Record<string, string> = {}, databasePath = tempDatabasePath()) {
  const server = await serve({ env: { OWNER_PASSWORD: password, ...env }, databasePath })
  return { server, cookie: await signInAsOwner(server.url, password) }
}

const patch = (server: RunningServer, cookie: string, body: string, path = '/api/settings') =>
  fetch(`${server.url}${path}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body,
  })

describe('every way to the settings needs the signed-in owner', () => {
  it('other spellings of the API and the page are guarded alike, and change nothing', async () => {
    const { server } = await site()
    for (const path of ['/api/settings', '/api/settings/', '/API/settings', '//api//settings', '/api/%73ettings']) {
      const answer = await rawRequest(server.url, {
        method: 'PATCH',
        path,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ FARM_NAME: 'Taken' }),
      })
      expect([401, 404], path).toContain(answer.status)
    }
    for (const path of [
      '/farm-sales/settings',
      '/farm-sales/settings?_data=routes%2Ffarm-sales_.settings',
      '/FARM-SALES/settings',
    ]) {
      const answer = await rawRequest(server.url, {
        path,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'section=farm&intent=save&FARM_NAME=Taken',
      })
      // A data request is sent to sign in by Remix's own redirect (204 and X-Remix-Redirect).
      expect([302, 204, 404], path).toContain(answer.status)
      if (answer.status === 204) expect(String(answer.headers['x-remix-redirect'])).toMatch(/^\/sign-in/)
    }
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
  })

  it('takes only PATCH on the API and POST on the page', async () => {
    const { server, cookie } = await site()
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await fetch(`${server.url}/api/settings`, {
        method,
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        body: JSON.stringify({ FARM_NAME: 'Taken' }),
      })
      expect(answer.status, method).toBe(405)
      expect(answer.headers.get('Allow')).toBe('PATCH')
    }
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const answer = await fetch(`${server.url}/farm-sales/settings`, {
        method,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
        body: 'section=farm&intent=save&FARM_NAME=Taken',
      })
      expect(answer.status, method).toBe(405)
    }
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
  })
})

describe('what a value may hold', () => {
  it('refuses other spellings of a key, prototype keys, other media types and bodies that are not JSON', async () => {
    const { server, cookie } = await site()
    for (const body of [
      '{"farm_name":"x"}',
      '{"__proto__":{"FARM_NAME":"x"}}',
      '{"constructor":"x"}',
      '{"FARM_NAME ":"x"}',
    ]) {
      const answer = await patch(server, cookie, body)
      expect(answer.status, body).toBe(400)
      expect(((await answer.json()) as { error: string }).error).toMatch(/^No such setting: /)
    }
    expect((await patch(server, cookie, '{"FARM_NAME":')).status).toBe(400)
    expect((await patch(server, cookie, 'null')).status).toBe(400)
    const asForm = await fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
      body: 'FARM_NAME=x',
    })
    expect(asForm.status).toBe(415)
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
  })

  it('refuses line breaks and control characters (no header of a mail can be written through a setting), and long values', async () => {
    const { server, cookie } = await site()
    for (const [key, value] of [
      ['NOTIFY_FROM', 'farm@bramble.example\r\nBcc: everyone@example.com'],
      ['FARM_NAME', 'Bramble\nBcc: x@example.com'],
      ['FARM_NAME', 'Bramble\u0000'],
      ['SMTP_HOST', 'mail.example\r\nRCPT TO:<x@example.com>'],
      ['SMTP_USER', 'farm\u001b[31m'],
      ['FARM_NAME', 'x'.repeat(501)],
      ['FARM_PRODUCTS', 'eggs,'.repeat(2_001)],
      ['SMTP_HOST', 'mail.example:25'],
      ['SMTP_HOST', 'user@mail.example'],
      ['SMTP_PORT', '587 '.repeat(3)],
      ['SMTP_SECURITY', 'none'],
      ['UPDATES', 'yes'],
    ] as const) {
      const answer = await patch(server, cookie, JSON.stringify({ [key]: value }))
      expect(answer.status, `${key}=${JSON.stringify(value)}`).toBe(400)
      expect(((await answer.json()) as { fields: Record<string, string> }).fields[key]).toBeTruthy()
    }
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
  })

  it('a body past the owner’s limit is refused before it is read; a long list of products within it is not', async () => {
    const { server, cookie } = await site()
    // A hundred products with four other names each, in umlauts: some 5,000 characters, 30 KB once form-encoded.
    const products = Array.from(
      { length: 100 },
      (_, n) => `äöü${n}=${Array.from({ length: 4 }, (_, k) => `äöüßé${n}x${k}`).join('|')}`,
    ).join('\n')
    const page = await fetch(`${server.url}/farm-sales/settings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
      body: new URLSearchParams({ section: 'farm', intent: 'save', FARM_PRODUCTS: products }).toString(),
      redirect: 'manual',
    })
    expect(page.status).toBe(303)
    expect(
      readRows(server.databasePath, "SELECT length(value) AS n FROM farm_settings WHERE key = 'FARM_PRODUCTS'"),
    ).toEqual([{ n: products.length }])
    const answer = await patch(server, cookie, JSON.stringify({ FARM_PRODUCTS: 'e'.repeat(300 * 1024) }))
    expect(answer.status).toBe(413)
    expect(
      readRows(server.databasePath, "SELECT length(value) AS n FROM farm_settings WHERE key = 'FARM_PRODUCTS'"),
    ).toEqual([{ n: products.length }])
  })

  it('a farm name that looks like markup is shown as text on every page', async () => {
    const { server, cookie } = await site()
    expect((await patch(server, cookie, JSON.stringify({ FARM_NAME: '<img src=x onerror=alert(1)>' }))).status).toBe(
      200,
    )
    for (const path of ['/', '/farm-sales/settings', '/farm-sales']) {
      const html = await (await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } })).text()
      expect(html, path).not.toContain('<img src=x')
      expect(html, path).toContain('&lt;img src=x onerror=alert(1)&gt;')
    }
  })
})

describe('tests that reach another server', () => {
  it('a replayed test is capped per person: past the minute’s share, no more mails go out', async () => {
    const mail = await startMailServer()
    mailServers.push(mail)
    const { server, cookie } = await site({ REPLY_RATE_LIMIT: '3' })
    const form = new URLSearchParams({
      section: 'mail',
      intent: 'test-mail',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(mail.port),
      SMTP_SECURITY: 'offered',
      NOTIFY_EMAIL: 'owner@bramble.example',
    }).toString()
    const answers: number[] = []
    for (let n = 0; n < 5; n++) {
      const answer = await fetch(`${server.url}/farm-sales/settings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
        body: form,
      })
      answers.push(answer.status)
      if (n === 4) expect(await answer.text()).toContain('Too many tests: wait a minute.')
    }
    expect(answers).toEqual([200, 200, 200, 400, 400])
    expect(mail.mails).toHaveLength(3)
  })
})

describe('secrets', () => {
  it('are in no answer, page, export, CSV or log line; only ‘set’', async () => {
    const mail = await startMailServer({ login: { user: 'farm', password: mailPassword } })
    mailServers.push(mail)
    const { server, cookie } = await site()
    const webhookSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
    const saved = await patch(
      server,
      cookie,
      JSON.stringify({
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(mail.port),
        SMTP_SECURITY: 'offered',
        SMTP_USER: 'farm',
        SMTP_PASSWORD: mailPassword,
        NOTIFY_EMAIL: 'owner@bramble.example',
        WEBHOOK_URL: 'http://127.0.0.1:9/hook',
        WEBHOOK_SECRET: webhookSecret,
      }),
    )
    expect(saved.status).toBe(200)
    await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ann Baker', email: 'ann@example.com', message: 'Two dozen eggs, please.' }),
    })
    await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBe(1)
    const seen = [
      JSON.stringify(await saved.json()),
      await (await fetch(`${server.url}/api/settings`, { headers: { Cookie: cookie } })).text(),
      await (await fetch(`${server.url}/farm-sales/settings`, { headers: { Cookie: cookie } })).text(),
      await (await fetch(`${server.url}/api/submissions.csv`, { headers: { Cookie: cookie } })).text(),
      await (await fetch(`${server.url}/api/people?email=ann%40example.com`, { headers: { Cookie: cookie } })).text(),
      server.output(),
    ].join('\n')
    for (const secret of [mailPassword, encodeURIComponent(mailPassword), webhookSecret, webhookSecret.slice(6)]) {
      expect(seen).not.toContain(secret)
    }
  })

  it('a password the mail server repeats in its refusal is cut out, as typed and as it travels in the address', async () => {
    // A server that says back what it was given, as a careless one might: a refused login is said
    // in the site's words alone; a refused sender in the server's, with the password cut out.
    const port = await freePort()
    const echoing = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.password !== typed)
          return callback(new Error(`No user ${auth.username} with password ${auth.password}`))
        callback(null, { user: `${auth.password} (${encodeURIComponent(auth.password ?? '')})` })
      },
      onMailFrom(_address, session, callback) {
        callback(Object.assign(new Error(`No sending for ${String(session.user)}`), { responseCode: 553 }))
      },
    })
    const typed = 'Hay & Straw:7/8@barn'
    await new Promise<void>((resolve) => echoing.listen(port, '127.0.0.1', resolve))
    try {
      const { server, cookie } = await site()
      const test = (password: string) =>
        fetch(`${server.url}/farm-sales/settings`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
          body: new URLSearchParams({
            section: 'mail',
            intent: 'test-mail',
            SMTP_HOST: '127.0.0.1',
            SMTP_PORT: String(port),
            SMTP_SECURITY: 'offered',
            SMTP_USER: 'farm',
            SMTP_PASSWORD: password,
            NOTIFY_EMAIL: 'owner@bramble.example',
          }).toString(),
        })
      const wrong = 'Oat & Barley:3/4@loft'
      const refused = await test(wrong)
      const refusedHtml = await refused.text()
      expect(refused.status).toBe(400)
      expect(refusedHtml).toContain('The server refused the user name or password')
      const answer = await test(typed)
      const html = await answer.text()
      expect(answer.status).toBe(400)
      expect(html.replace(/<!-- -->/g, '')).toContain(
        'The mail server refused the test mail: 553 No sending for ••• (•••)',
      )
      for (const form of [typed, encodeURIComponent(typed), 'Hay &amp; Straw:7/8@barn', wrong, 'Oat &amp; Barley']) {
        expect(html + refusedHtml).not.toContain(form)
        expect(server.output()).not.toContain(form)
      }
    } finally {
      await new Promise<void>((resolve) => echoing.close(() => resolve()))
    }
  })
})

describe('rows from a restored file', () => {
  async function withRows(rows: Array<[string, string]>, env: Record<string, string>) {
    const databasePath = tempDatabasePath()
    const first = await serve({ databasePath, env })
    await first.stop('SIGTERM')
    const sqlite = new Sqlite(databasePath)
    const insert = sqlite.prepare('INSERT INTO farm_settings (key, value, changed_at) VALUES (?, ?, 0)')
    for (const [key, value] of rows) insert.run(key, value)
    sqlite.close()
    return serve({ databasePath, env })
  }

  it('are not read at all by a site without OWNER_PASSWORD: no one could see them, so none may rule', async () => {
    const server = await withRows(
      [
        ['PUBLIC_URL', 'http://rebind.attacker.example'],
        ['NOTIFY_EMAIL', 'leads@attacker.example'],
        ['SMTP_HOST', '127.0.0.1'],
        ['HANDLED_RETENTION_DAYS', '1'],
      ],
      {},
    )
    const rebound = await rawRequest(server.url, {
      method: 'GET',
      path: '/farm-sales',
      headers: { Host: 'rebind.attacker.example' },
    })
    expect(rebound.status).toBe(421)
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { outbox: unknown }
    expect(health.outbox).toBeNull()
    expect(server.output()).not.toContain('deleted handled submissions')
  })

  it('are read only for the page’s own fields, and only as the page would take them', async () => {
    const server = await withRows(
      [
        ['PUSH_HOSTS', 'evil.example'],
        ['OWNER_PASSWORD', 'taken'],
        ['FARM_NAME', 'Bramble\r\nBcc: everyone@example.com'],
        ['FARM_PRODUCT', 'Orchard fruit'],
      ],
      { OWNER_PASSWORD: password, VAPID_SUBJECT: 'mailto:owner@bramble.example' },
    )
    const cookie = await signInAsOwner(server.url, password)
    const states = (
      (await (await fetch(`${server.url}/api/settings`, { headers: { Cookie: cookie } })).json()) as {
        data: Array<{ key: string; value: string | null; source: string }>
      }
    ).data
    expect(states.find((state) => state.key === 'FARM_NAME')).toMatchObject({
      value: 'Willow Creek Farm',
      source: 'default',
    })
    expect(states.find((state) => state.key === 'FARM_PRODUCT')).toMatchObject({
      value: 'Orchard fruit',
      source: 'settings page',
    })
    expect(server.output()).toContain('set aside a stored setting')
    await expect(signInAsOwner(server.url, 'taken')).rejects.toThrow()
    // The push services' hosts are the environment's: a phone on another host is refused.
    const pair = createECDH('prime256v1')
    pair.generateKeys()
    const subscribed = await fetch(`${server.url}/api/push-subscriptions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: server.url },
      body: JSON.stringify({
        endpoint: 'https://evil.example/push/1',
        keys: { p256dh: pair.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
      }),
    })
    expect(subscribed.status).toBe(400)
    expect(readRows(server.databasePath, 'SELECT * FROM push_subscriptions')).toEqual([])
  })
})
