// Owner sessions live on the server: a random id in the cookie, ended by signing out and by a
// new password, one per sign-in; the cookie is Secure exactly when the request came over HTTPS.
import Sqlite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { connectLive } from '#tests/support/live-client'
import { rawRequest } from '#tests/support/raw-request'
import { serverPerTest } from '#tests/support/server-per-test'
import { tempDatabasePath, type RunningServer } from '#tests/support/server'

const password = 'apple blossom in may'
const serve = serverPerTest()

async function signIn(server: RunningServer, headers: Record<string, string> = {}) {
  const answer = await rawRequest(server.url, {
    path: '/sign-in',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ password, redirectTo: '/farm-sales' }).toString(),
  })
  expect(answer.status).toBe(302)
  return String(answer.headers['set-cookie'])
}

const cookieOf = (setCookie: string) => setCookie.split(';')[0]!

async function access(server: RunningServer, cookie: string) {
  const api = (await fetch(`${server.url}/api/submissions`, { headers: { Cookie: cookie } })).status
  const page = await rawRequest(server.url, { method: 'GET', path: '/farm-sales', headers: { Cookie: cookie } })
  const live = await new Promise<number>((resolve, reject) => {
    const socket = new WebSocket(server.wsUrl, { headers: { Cookie: cookie } })
    socket.once('open', () => {
      socket.close()
      resolve(101)
    })
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    socket.once('error', reject)
  })
  return { api, page: page.status === 302 ? `302 ${page.headers.location}` : String(page.status), live }
}

const signedIn = { api: 200, page: '200', live: 101 }
const signedOut = { api: 401, page: '302 /sign-in?redirectTo=%2Ffarm-sales', live: 401 }

function sessionRows(databasePath: string) {
  const sqlite = new Sqlite(databasePath, { readonly: true })
  try {
    return sqlite.prepare('SELECT * FROM sessions ORDER BY created_at').all() as Array<Record<string, unknown>>
  } finally {
    sqlite.close()
  }
}

describe('owner sessions', () => {
  it('signing out ends that session on the server: the old cookie no longer reads the inbox or opens the live link', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    const cookie = cookieOf(await signIn(server))
    expect(await access(server, cookie)).toEqual(signedIn)
    const out = await rawRequest(server.url, { path: '/sign-out', headers: { Cookie: cookie } })
    expect(out.status).toBe(302)
    expect(await access(server, cookie)).toEqual(signedOut)
    expect(sessionRows(server.databasePath)).toMatchObject([{ revoked_at: expect.any(Number) }])
  })

  it('closes the live sockets a session opened the moment it signs out; no lead reaches them after, the other session’s keep theirs', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    const leaving = cookieOf(await signIn(server))
    const staying = cookieOf(await signIn(server))
    const [first, second, other] = await Promise.all([
      connectLive(server.wsUrl, { Cookie: leaving }),
      connectLive(server.wsUrl, { Cookie: leaving }),
      connectLive(server.wsUrl, { Cookie: staying }),
    ])
    const closed = (socket: WebSocket) =>
      new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)))
    const ended = Promise.all([closed(first!.socket), closed(second!.socket)])
    const heard: string[] = []
    for (const client of [first!, second!]) client.socket.on('message', (raw) => heard.push(String(raw)))
    expect((await rawRequest(server.url, { path: '/sign-out', headers: { Cookie: leaving } })).status).toBe(302)
    expect(await ended).toEqual([1008, 1008])
    const posted = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'After Sign Out', email: 'late@example.com', message: 'Any honey left?' }),
    })
    expect(posted.status).toBe(201)
    expect(await other!.next()).toMatchObject({ type: 'NEW_SUBMISSION', data: { name: 'After Sign Out' } })
    expect(heard).toEqual([])
    // And a reconnect with the old cookie is refused.
    expect((await access(server, leaving)).live).toBe(401)
    other!.close()
  })

  it('gives each sign-in its own session; ending one leaves the other', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    const first = cookieOf(await signIn(server))
    const second = cookieOf(await signIn(server))
    expect(first).not.toBe(second)
    expect(sessionRows(server.databasePath)).toHaveLength(2)
    await rawRequest(server.url, { path: '/sign-out', headers: { Cookie: first } })
    expect(await access(server, first)).toEqual(signedOut)
    expect(await access(server, second)).toEqual(signedIn)
  })

  it('keeps sessions across a restart with the same password and ends them all when the password changes', async () => {
    const databasePath = tempDatabasePath()
    const before = await serve({ databasePath, env: { OWNER_PASSWORD: password } })
    const cookie = cookieOf(await signIn(before))
    await before.stop()

    const same = await serve({ databasePath, env: { OWNER_PASSWORD: password } })
    expect(await access(same, cookie)).toEqual(signedIn)
    await same.stop()

    const changed = await serve({ databasePath, env: { OWNER_PASSWORD: 'a brand new password' } })
    expect(await access(changed, cookie)).toEqual(signedOut)
    expect(sessionRows(databasePath).every((row) => row.revoked_at !== null)).toBe(true)
  })

  it('puts only a random id in the cookie, and only its hash in the database', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    const ids = [cookieOf(await signIn(server)), cookieOf(await signIn(server))].map((cookie) =>
      JSON.parse(Buffer.from(decodeURIComponent(cookie.split('=')[1]!), 'base64').toString('utf8')),
    )
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(ids[0]).not.toBe(ids[1])
    const stored = sessionRows(server.databasePath).map((row) => row.id_hash)
    for (const id of ids) expect(stored).not.toContain(id)
    const sqlite = new Sqlite(server.databasePath, { readonly: true })
    const file = JSON.stringify(sqlite.prepare('SELECT * FROM owner_password').all())
    sqlite.close()
    expect(file).not.toContain(password)
    expect(server.output()).not.toContain(password)
  })

  it.each([
    ['a made-up id', 'farm_owner=' + encodeURIComponent(Buffer.from('"' + 'A'.repeat(43) + '"').toString('base64'))],
    ['an empty cookie', 'farm_owner='],
    ['garbage', 'farm_owner=%%%'],
    ['a very long cookie', `farm_owner=${'x'.repeat(4000)}`],
  ])('refuses %s', async (_name, cookie) => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    expect(await access(server, cookie)).toEqual(signedOut)
  })
})

describe('the Secure flag', () => {
  it('is left off over plain HTTP, so a LAN owner can sign in, with one warning for a non-local host', async () => {
    // The owner reaches the site by a LAN name, with the README's settings (no ALLOWED_HOSTS).
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    expect(await signIn(server)).not.toMatch(/Secure/)
    expect(server.output()).not.toContain('signed in over plain HTTP')
    const lan = await signIn(server, { Host: `farm.lan:${server.port}` })
    expect(lan).not.toMatch(/Secure/)
    const warnings = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('signed in over plain HTTP'))
    // The log line reaches the test a moment after the answer does.
    await expect.poll(() => warnings().length).toBe(1)
    expect(JSON.parse(warnings()[0]!)).toMatchObject({ level: 40, host: `farm.lan:${server.port}` })
  })

  it('is set when the request came over HTTPS through a trusted proxy, and not when the proxy is not trusted', async () => {
    const proxied = await serve({
      env: { OWNER_PASSWORD: password, TRUST_PROXY: '1', PUBLIC_URL: 'https://farm.example' },
    })
    const https = { 'X-Forwarded-Proto': 'https', Host: 'farm.example', Origin: 'https://farm.example' }
    expect(await signIn(proxied, https)).toMatch(/; Secure/)
    expect(proxied.output()).not.toContain('signed in over plain HTTP')
    const direct = await serve({ env: { OWNER_PASSWORD: password } })
    expect(await signIn(direct, { 'X-Forwarded-Proto': 'https' })).not.toMatch(/Secure/)
  })
})
