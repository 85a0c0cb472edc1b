// DNS rebinding: a page on a name the attacker owns, whose DNS now points at this server, is
// same-origin with itself and could read an open inbox. The site answers only to its own
// names (PUBLIC_URL's, ALLOWED_HOSTS), IP addresses and localhost, on every path and the
// live link; every other Host gets 421 and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { rawRequest } from '#tests/support/raw-request'
import { startServer, type RunningServer } from '#tests/support/server'

const paths = ['/', '/farm-sales', '/api/submissions', '/api/submissions.csv', '/healthz', '/favicon.ico', '/sign-in']

function upgrade(server: RunningServer, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const socket = new WebSocket(server.wsUrl, { headers })
    socket.once('open', () => {
      socket.close()
      resolve(101)
    })
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    socket.once('error', reject)
  })
}

const get = (server: RunningServer, path: string, headers: Record<string, string>) =>
  rawRequest(server.url, { method: 'GET', path, headers })

describe('with the shipped defaults (no PUBLIC_URL, no ALLOWED_HOSTS, no password)', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.stop())

  it.each(['rebind.evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', 'farm', 'xn--frm-fla.example'])(
    'refuses Host %s with 421 on every path and the live link, and shows none of the inbox',
    async (name) => {
      const port = new URL(server.url).port
      for (const host of [name, `${name}:${port}`, name.toUpperCase()]) {
        for (const path of paths) {
          const answer = await get(server, path, { Host: host })
          expect({ host, path, status: answer.status }).toEqual({ host, path, status: 421 })
          expect(answer.text).not.toMatch(/submission-card|@example\.com/)
        }
        for (const method of ['POST', 'PATCH', 'DELETE']) {
          const answer = await rawRequest(server.url, {
            method,
            path: '/api/submissions',
            headers: { Host: host, 'Content-Type': 'application/json' },
            body: '{}',
          })
          expect(answer.status).toBe(421)
        }
        expect(await upgrade(server, { Host: host })).toBe(421)
      }
    },
  )

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', 'localhost.', '[::1]', '10.0.0.7', '192.168.1.20'])(
    'answers Host %s (an address or localhost) as before',
    async (name) => {
      const port = new URL(server.url).port
      for (const host of [name, `${name}:${port}`]) {
        expect((await get(server, '/healthz', { Host: host })).status).toBe(200)
        expect((await get(server, '/api/submissions', { Host: host })).status).toBe(200)
      }
      expect(await upgrade(server, { Host: `${name}:${port}` })).toBe(101)
    },
  )

  it('reads the Host, not an untrusted X-Forwarded-Host, either way', async () => {
    expect((await get(server, '/healthz', { Host: 'evil.example', 'X-Forwarded-Host': '127.0.0.1' })).status).toBe(421)
    expect((await get(server, '/healthz', { Host: '127.0.0.1', 'X-Forwarded-Host': 'evil.example' })).status).toBe(200)
    expect(await upgrade(server, { Host: 'evil.example', 'X-Forwarded-Host': 'localhost' })).toBe(421)
  })
})

describe('with PUBLIC_URL, ALLOWED_HOSTS and a trusted proxy', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({
      env: {
        PUBLIC_URL: 'https://farm.example',
        ALLOWED_HOSTS: 'www.farm.example, Shop.Farm.Example',
        TRUST_PROXY: '1',
      },
    })
  })
  afterAll(() => server.stop())

  it('answers the site’s own names, in any case, and still refuses every other', async () => {
    for (const host of ['farm.example', 'WWW.farm.example', 'shop.farm.example:443']) {
      expect((await get(server, '/', { Host: host })).status).toBe(200)
      expect(await upgrade(server, { Host: host, Origin: `http://${host}` })).toBe(101)
    }
    for (const host of ['evil.example', 'farm.example.evil.example', 'notfarm.example']) {
      expect((await get(server, '/', { Host: host })).status).toBe(421)
    }
  })

  it('behind the trusted proxy, judges the name the visitor asked for (X-Forwarded-Host)', async () => {
    expect((await get(server, '/', { Host: 'app:3000', 'X-Forwarded-Host': 'farm.example' })).status).toBe(200)
    expect((await get(server, '/', { Host: 'farm.example', 'X-Forwarded-Host': 'evil.example' })).status).toBe(421)
    expect(await upgrade(server, { Host: 'farm.example', 'X-Forwarded-Host': 'evil.example' })).toBe(421)
  })
})

describe('with TRUST_PROXY naming a proxy that is not the peer', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: '10.9.9.9' } })
  })
  afterAll(() => server.stop())

  it('judges the Host and ignores X-Forwarded-Host from the untrusted peer, on pages and the live link alike', async () => {
    const rebound = { Host: 'evil.example', 'X-Forwarded-Host': 'localhost' }
    expect((await get(server, '/', rebound)).status).toBe(421)
    expect(await upgrade(server, rebound)).toBe(421)
    const local = { Host: `127.0.0.1:${new URL(server.url).port}`, 'X-Forwarded-Host': 'evil.example' }
    expect((await get(server, '/', local)).status).toBe(200)
    expect(await upgrade(server, local)).toBe(101)
  })
})
