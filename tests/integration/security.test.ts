import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { storedRows } from '#tests/support/database'
import { connectLive } from '#tests/support/live-client'
import { ownerPassword as password } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const valid = { name: 'Nell Crane', email: 'nell@example.com', message: 'Are the strawberries ready?' }
const start = serverPerTest()
const serve = (env: Record<string, string> = {}) => start({ env })

function post(server: RunningServer, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
}

function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers })
    socket.once('open', () => {
      socket.close()
      resolve(101)
    })
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    socket.once('error', reject)
  })
}

describe('security headers', () => {
  it('allows only the scripts Remix renders with a fresh nonce, and forbids framing and sniffing', async () => {
    const server = await serve()
    const first = await fetch(server.url)
    const second = await fetch(server.url)
    const policy = first.headers.get('content-security-policy') ?? ''
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1]
    expect(nonce).toBeTruthy()
    expect(second.headers.get('content-security-policy')).not.toContain(nonce)

    const html = await first.text()
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag)
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)

    const host = new URL(server.url).host
    expect(policy).toContain(`connect-src 'self' ws://${host} wss://${host}`)
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).toContain("object-src 'none'")
    expect(first.headers.get('x-content-type-options')).toBe('nosniff')
    expect(first.headers.get('x-frame-options')).toBe('DENY')
    expect(first.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(first.headers.get('x-powered-by')).toBeNull()
  })

  it('never writes a hostile Host header into the policy', async () => {
    const server = await serve()
    const answer = await rawRequest(server.url, { method: 'GET', path: '/', headers: { Host: 'evil; script-src *' } })
    expect(answer.status).toBe(400)
    expect(answer.headers['content-security-policy'] ?? '').not.toContain('evil')
  })
})

describe('cross-site requests', () => {
  it('accepts same-origin posts, and the origins listed in ALLOWED_ORIGINS', async () => {
    const server = await serve({ ALLOWED_ORIGINS: 'https://shop.example, https://farm.example:8443' })
    expect((await post(server, valid, { Origin: server.url, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(201)
    expect((await post(server, valid, { Origin: 'https://shop.example', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(
      201,
    )
    expect((await post(server, valid, { Origin: 'https://farm.example:8443' })).status).toBe(201)
    expect((await post(server, valid, { Origin: 'https://farm.example' })).status).toBe(403)
    expect(storedRows(server.databasePath)).toHaveLength(3)
  })

  it('checks the Origin of a live upgrade', async () => {
    const server = await serve()
    expect(await upgradeStatus(server.wsUrl, { Origin: 'https://evil.example' })).toBe(403)
    expect(await upgradeStatus(server.wsUrl, { Origin: server.url })).toBe(101)
    expect(await upgradeStatus(server.wsUrl)).toBe(101)
  })

  it('takes https from X-Forwarded-Proto on a live upgrade only when TRUST_PROXY is set', async () => {
    const behindTls = (server: RunningServer) => ({
      Origin: `https://${new URL(server.url).host}`,
      'X-Forwarded-Proto': 'https',
    })
    const direct = await serve()
    expect(await upgradeStatus(direct.wsUrl, behindTls(direct))).toBe(403)
    const proxied = await serve({ TRUST_PROXY: '1' })
    expect(await upgradeStatus(proxied.wsUrl, behindTls(proxied))).toBe(101)
  })
})

describe('rate limits', () => {
  it('answers 429 with Retry-After past SUBMISSION_RATE_LIMIT per minute and stores nothing more', async () => {
    const server = await serve({ SUBMISSION_RATE_LIMIT: '3' })
    for (let i = 0; i < 3; i++) expect((await post(server, valid)).status).toBe(201)
    const refused = await post(server, valid)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toEqual({
      error: 'Too many submissions from your address. Please wait a minute and try again.',
    })
    const form = await rawRequest(server.url, {
      path: '/?index',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=Nell&email=nell%40example.com&message=hi',
    })
    expect(form.status).toBe(429)
    expect(storedRows(server.databasePath)).toHaveLength(3)
  })

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const direct = await serve({ SUBMISSION_RATE_LIMIT: '1' })
    expect((await post(direct, valid, { 'X-Forwarded-For': '203.0.113.1' })).status).toBe(201)
    expect((await post(direct, valid, { 'X-Forwarded-For': '203.0.113.2' })).status).toBe(429)

    const proxied = await serve({ SUBMISSION_RATE_LIMIT: '1', TRUST_PROXY: '1' })
    expect((await post(proxied, valid, { 'X-Forwarded-For': '203.0.113.1' })).status).toBe(201)
    expect((await post(proxied, valid, { 'X-Forwarded-For': '203.0.113.2' })).status).toBe(201)
    expect((await post(proxied, valid, { 'X-Forwarded-For': '203.0.113.1' })).status).toBe(429)
  })
})

describe('spam traps', () => {
  async function formToken(server: RunningServer) {
    const html = await (await fetch(server.url)).text()
    return /name="formToken" value="([^"]+)"/.exec(html)![1]!
  }

  const spamFolder = (server: RunningServer) =>
    storedRows(server.databasePath).filter((row) => row.spam_reasons !== null)

  it('gives a filled honeypot a neutral answer and sets the submission aside unbroadcast', async () => {
    const server = await serve()
    const live = await connectLive(server.wsUrl)
    const caught = await post(server, { ...valid, website: 'https://cheap-pills.example' })
    expect(caught.status).toBe(202)
    expect(await caught.json()).toEqual({ message: 'Thank you! Your message has reached the farm.' })
    expect(spamFolder(server)).toMatchObject([{ name: valid.name, spam_reasons: '["honeypot"]' }])
    expect(await (await fetch(`${server.url}/api/submissions`)).json()).toEqual([])

    const real = await (await post(server, { ...valid, website: '' })).json()
    expect((await live.next()).data).toEqual(real.data)
    live.close()
  })

  it('sets aside a form sent faster than MIN_FILL_SECONDS, and lets a patient one through', async () => {
    // The shipped 3 s: at 1 s a busy machine could take longer than that to serve the page.
    const server = await serve({ MIN_FILL_SECONDS: '3' })
    const token = await formToken(server)
    expect((await post(server, { ...valid, formToken: token })).status).toBe(202)
    expect(spamFolder(server)).toMatchObject([{ spam_reasons: '["filled_too_fast"]' }])
    await new Promise((resolve) => setTimeout(resolve, 3_100))
    expect((await post(server, { ...valid, formToken: token })).status).toBe(201)
    expect(storedRows(server.databasePath)).toHaveLength(2)
    expect(spamFolder(server)).toHaveLength(1)
  })

  it('keeps accepting the plain body, and a token it cannot verify proves nothing', async () => {
    const server = await serve({ MIN_FILL_SECONDS: '60' })
    expect((await post(server, valid)).status).toBe(201)
    expect((await post(server, { ...valid, formToken: `${Date.now()}.forged` })).status).toBe(201)
    expect(storedRows(server.databasePath)).toHaveLength(2)
  })

  it('redirects a caught form posted without JavaScript like any other, and sets it aside', async () => {
    const server = await serve()
    const answer = await rawRequest(server.url, {
      path: '/?index',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: 'name=Nell&email=nell%40example.com&message=hi&website=spam',
    })
    expect(answer.status).toBe(303)
    expect(answer.headers.location).toBe('/?sent#contact')
    expect(spamFolder(server)).toMatchObject([{ name: 'Nell', spam_reasons: '["honeypot"]' }])
  })
})

describe('owner protection', () => {
  async function signIn(server: RunningServer, attempt: string) {
    return rawRequest(server.url, {
      path: '/sign-in',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: attempt, redirectTo: '/farm-sales' }).toString(),
    })
  }

  it('keeps the inbox, the list API and the live link behind the owner password', async () => {
    const server = await serve({ OWNER_PASSWORD: password })
    expect((await post(server, valid)).status).toBe(201)

    const page = await rawRequest(server.url, { method: 'GET', path: '/farm-sales' })
    expect(page.status).toBe(302)
    expect(page.headers.location).toBe('/sign-in?redirectTo=%2Ffarm-sales')
    const list = await fetch(`${server.url}/api/submissions`)
    expect(list.status).toBe(401)
    expect(await list.json()).toEqual({ error: 'Sign in as one of the farm’s team to read submissions.' })
    expect(await upgradeStatus(server.wsUrl)).toBe(401)

    expect((await signIn(server, 'wrong')).status).toBe(401)
    const signedIn = await signIn(server, password)
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers.location).toBe('/farm-sales')
    const setCookie = String(signedIn.headers['set-cookie'])
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Lax/)
    const cookie = setCookie.split(';')[0]!

    expect(
      (await rawRequest(server.url, { method: 'GET', path: '/farm-sales', headers: { Cookie: cookie } })).status,
    ).toBe(200)
    const owned = await fetch(`${server.url}/api/submissions`, { headers: { Cookie: cookie } })
    expect(owned.status).toBe(200)
    expect(await owned.json()).toHaveLength(1)
    expect(await upgradeStatus(server.wsUrl, { Cookie: cookie })).toBe(101)

    const tampered = cookie.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))
    expect((await fetch(`${server.url}/api/submissions`, { headers: { Cookie: tampered } })).status).toBe(401)

    const signedOut = await rawRequest(server.url, { path: '/sign-out', headers: { Cookie: cookie } })
    expect(signedOut.status).toBe(302)
    expect(String(signedOut.headers['set-cookie'])).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
  })

  it('limits sign-in attempts', async () => {
    const server = await serve({ OWNER_PASSWORD: password })
    for (let i = 0; i < 5; i++) expect((await signIn(server, `guess ${i}`)).status).toBe(401)
    const refused = await signIn(server, password)
    expect(refused.status).toBe(429)
    expect(refused.headers['set-cookie']).toBeUndefined()
    expect(refused.text).toContain('Too many sign-in attempts. Please wait a minute and try again.')
  })

  it('only redirects to paths on this site after signing in', async () => {
    const server = await serve({ OWNER_PASSWORD: password })
    const answer = await rawRequest(server.url, {
      path: '/sign-in',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password, redirectTo: '//evil.example/steal' }).toString(),
    })
    expect(answer.headers.location).toBe('/farm-sales')
  })

  it('warns at start in production when the inbox is open to everyone, and not when it is protected', async () => {
    const open = await serve()
    expect(open.output()).toContain('the site is not claimed')
    const guarded = await serve({ OWNER_PASSWORD: password })
    expect(guarded.output()).not.toContain('the site is not claimed')
    expect(guarded.output()).not.toContain(password)
  })
})
