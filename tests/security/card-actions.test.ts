// The Farm Sales page's own action (the cards' buttons): only the owner, only POST, only the
// changes a card offers, and nothing stored changes when it refuses.
import { beforeAll, describe, expect, it } from 'vitest'
import { storedRows } from '#tests/support/database'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

function post(
  server: RunningServer,
  path: string,
  body: string,
  method = 'POST',
  headers: Record<string, string> = {},
) {
  return rawRequest(server.url, {
    method,
    path,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(body.length), ...headers },
    body,
  })
}

async function store(server: RunningServer) {
  const answer = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Card Carl', email: 'carl@example.com', message: 'Eggs?' }),
  })
  return (await answer.json()).data.id as number
}

describe('the cards’ action on an open inbox', () => {
  let server: RunningServer
  let id: number
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
    id = await store(server)
  })

  it.each([
    ['an unknown status', () => `id=${id}&status=done`, 400],
    ['spam set to anything but false', () => `id=${id}&spam=true`, 400],
    ['no change at all', () => `id=${id}`, 400],
    ['an id that is not a number', () => 'id=abc&status=handled', 400],
    ['no id', () => 'status=handled', 400],
    ['an id no submission has', () => 'id=999999&status=handled', 404],
  ])('refuses %s with %i and changes nothing', async (_name, body, status) => {
    const before = storedRows(server.databasePath)
    const answer = await post(server, '/farm-sales?index', body())
    expect(answer.status).toBe(status)
    expect(storedRows(server.databasePath)).toEqual(before)
  })

  it.each(['PUT', 'PATCH', 'DELETE'])('refuses %s with 405', async (method) => {
    const answer = await post(server, '/farm-sales', `id=${id}&status=handled`, method)
    expect(answer.status).toBe(405)
    expect(answer.headers.allow).toBe('POST')
    expect(storedRows(server.databasePath)).toMatchObject([{ status: 'new' }])
  })

  it('takes the change from other spellings of the page alike, and from another site’s page not at all', async () => {
    const foreign = await post(server, '/farm-sales', `id=${id}&status=handled`, 'POST', {
      Origin: 'https://evil.example',
      'Sec-Fetch-Site': 'cross-site',
    })
    expect(foreign.status).toBe(403)
    expect(storedRows(server.databasePath)).toMatchObject([{ status: 'new' }])
    const answer = await post(server, '/farm%2Dsales?q=carl', `id=${id}&status=handled`)
    expect(answer.status).toBe(303)
    expect(answer.headers.location).toBe('/farm-sales?q=carl')
    expect(storedRows(server.databasePath)).toMatchObject([{ status: 'handled' }])
  })
})

describe('the cards’ action behind OWNER_PASSWORD', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { OWNER_PASSWORD: 'only mine' } })
  })

  it('sends a visitor to sign in, on every spelling, and changes nothing', async () => {
    const id = await store(server)
    for (const path of [
      '/farm-sales',
      '/farm%2Dsales',
      '/FARM-SALES',
      '/farm-sales/',
      '/farm-sales?_data=routes%2Ffarm-sales',
    ]) {
      const answer = await post(server, path, `id=${id}&status=handled`)
      // A data request is told to redirect with 204 and X-Remix-Redirect; a page request with 302.
      expect({ path, redirected: [302, 204].includes(answer.status) }).toEqual({ path, redirected: true })
      expect(String(answer.headers.location ?? answer.headers['x-remix-redirect'])).toMatch(/^\/sign-in/)
    }
    expect(storedRows(server.databasePath)).toMatchObject([{ status: 'new' }])
  })
})
