// Downloading everything, exporting a person, deleting and forgetting: only the signed-in owner,
// and only with OWNER_PASSWORD set, however the path is spelt and whatever the method; an address
// that is not one is refused, an unknown one changes nothing, and no answer is a 500 or a trace.
import { beforeAll, describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const stored = (server: RunningServer) =>
  readRows<{ id: number; email: string }>(server.databasePath, 'SELECT id, email FROM submissions ORDER BY id')

async function post(server: RunningServer, email: string) {
  const answer = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Ann Baker', email, message: 'Any honey left for Saturday?' }),
  })
  expect(answer.status).toBe(201)
}

const destructive = [
  ['GET', '/api/backup'],
  ['GET', '/api/people?email=ann%40example.com'],
  ['DELETE', '/api/people?email=ann%40example.com'],
  ['DELETE', '/api/submissions/1'],
  ['DELETE', '/api/spam'],
] as const

describe('with OWNER_PASSWORD', () => {
  let server: RunningServer
  let cookie: string
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { OWNER_PASSWORD: password } })
    cookie = await signInAsOwner(server.url, password)
    await post(server, 'ann@example.com')
    await post(server, 'bob@example.com')
  })

  it('answers 401 to anyone not signed in, on every spelling of every path, and changes nothing', async () => {
    for (const [method, path] of destructive) {
      for (const spelt of [path, path.replace('/api/', '/api//'), path.replace('/api/', '/API/')]) {
        const answer = await fetch(`${server.url}${spelt}`, { method })
        expect([401, 404, 405], `${method} ${spelt}`).toContain(answer.status)
        expect(answer.headers.get('content-type')).toContain('application/json')
      }
      // An encoded slash is no API path at all: the site's own 'not found' page, or its 405.
      const encoded = await fetch(`${server.url}${path.replace('/api/', '/api%2F')}`, { method })
      expect([404, 405]).toContain(encoded.status)
      const answer = await fetch(`${server.url}${path}`, { method, headers: { Cookie: 'farm_session=forged' } })
      expect(answer.status, `${method} ${path}`).toBe(401)
    }
    expect(stored(server)).toHaveLength(2)
  })

  it('refuses every other method with 405 and Allow, and a HEAD of the backup makes no copy', async () => {
    for (const [path, methods, allow] of [
      // Remix runs loaders for OPTIONS: it must not make a copy or an export.
      ['/api/backup', ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], 'GET, HEAD'],
      ['/api/people?email=ann%40example.com', ['POST', 'PUT', 'PATCH', 'OPTIONS'], 'GET, HEAD, DELETE'],
      ['/api/spam', ['GET', 'POST', 'PUT', 'PATCH', 'OPTIONS'], 'DELETE'],
      ['/api/submissions/1', ['POST', 'PUT', 'GET'], 'PATCH, DELETE'],
    ] as const) {
      for (const method of methods) {
        const answer = await fetch(`${server.url}${path}`, { method, headers: { Cookie: cookie } })
        expect(answer.status, `${method} ${path}`).toBe(405)
        expect(answer.headers.get('allow')).toBe(allow)
      }
    }
    const head = await fetch(`${server.url}/api/backup`, { method: 'HEAD', headers: { Cookie: cookie } })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBeNull()
    expect(stored(server)).toHaveLength(2)
  })

  it('refuses an address that is not one (400), one it does not know (404), and changes nothing', async () => {
    for (const query of [
      '',
      'email=',
      'email=ann',
      'email=ann%40example.com&email=bob%40example.com',
      `email=${'a'.repeat(250)}%40example.com`,
      'email=ann%40example.com%0D%0ABcc%3A%20x%40evil.test',
      'email=ann%00%40example.com',
      'mail=ann%40example.com',
    ]) {
      for (const method of ['GET', 'DELETE']) {
        const answer = await fetch(`${server.url}/api/people?${query}`, { method, headers: { Cookie: cookie } })
        expect(answer.status, `${method} ?${query}`).toBe(400)
        expect(Object.keys(await answer.json())).toEqual(['error'])
      }
    }
    for (const method of ['GET', 'DELETE']) {
      const answer = await fetch(`${server.url}/api/people?email=carol%40example.com`, {
        method,
        headers: { Cookie: cookie },
      })
      expect(answer.status).toBe(404)
      expect(await answer.json()).toEqual({ error: 'The site holds nothing about carol@example.com.' })
    }
    for (const id of ['0', '-1', '1e3', 'abc', '99999999999999999999']) {
      const answer = await fetch(`${server.url}/api/submissions/${id}`, {
        method: 'DELETE',
        headers: { Cookie: cookie },
      })
      expect(answer.status, id).toBe(404)
    }
    expect(stored(server)).toHaveLength(2)
    expect(server.output()).not.toContain('an API call failed')
  })

  it('refuses a DELETE from another site, a forged request riding the cookie, on the API and the no-JS forms', async () => {
    for (const [method, path] of destructive.filter(([method]) => method === 'DELETE')) {
      const answer = await fetch(`${server.url}${path}`, {
        method,
        headers: { Cookie: cookie, Origin: 'https://evil.example' },
      })
      expect(answer.status, `${method} ${path}`).toBe(403)
    }
    // The no-JavaScript forms too.
    const form = await rawRequest(server.url, {
      path: '/farm-sales',
      headers: {
        Cookie: cookie,
        Origin: 'https://evil.example',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'intent=forget&id=1',
    })
    expect(form.status).toBe(403)
    expect(stored(server)).toHaveLength(2)
  })

  it('the no-JavaScript forms: forget and delete by a card id, refuse an id of another form', async () => {
    const form = (body: string, path = '/farm-sales') =>
      rawRequest(server.url, {
        path,
        headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      })
    for (const id of ['1e0', '-1', ' 1', '', '0x1', '1.0']) {
      expect((await form(`intent=delete&id=${encodeURIComponent(id)}`)).status, id).toBe(404)
    }
    expect(stored(server)).toHaveLength(2)
    const bob = stored(server).find((row) => row.email === 'bob@example.com')!.id
    const done = await form(`intent=forget&id=${bob}`, '/farm-sales?status=new')
    expect(done.status).toBe(303)
    expect(done.headers.location).toBe('/farm-sales?status=new')
    expect(stored(server).map((row) => row.email)).toEqual(['ann@example.com'])
  })
})

describe('without OWNER_PASSWORD', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
    await post(server, 'ann@example.com')
  })

  it('answers 403 naming OWNER_PASSWORD: an open inbox never gives away or destroys its data', async () => {
    for (const [method, path] of destructive) {
      const answer = await fetch(`${server.url}${path}`, { method })
      expect(answer.status, `${method} ${path}`).toBe(403)
      expect((await answer.json()).error).toContain('claim the site first')
    }
    const form = await rawRequest(server.url, {
      path: '/farm-sales',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'intent=empty-spam',
    })
    expect(form.status).toBe(403)
    expect(stored(server)).toHaveLength(1)
    // The inbox stays open to read; its page has no such buttons, and says the site is not claimed.
    const page = await (await fetch(`${server.url}/farm-sales`)).text()
    expect(page).toContain('Ann Baker')
    expect(page).not.toContain('Download a backup')
    expect(page).not.toContain('Forget this person')
    expect(page).toContain('the site is not claimed yet')
  })
})
