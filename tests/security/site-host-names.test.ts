// DNS rebinding: a page on a name the attacker owns, whose DNS now points at this server, is
// same-origin with itself. It has none of the owner's cookies (a browser keeps those to the
// name that set them), so behind OWNER_PASSWORD it sees only what any visitor sees, and the
// site answers to any name (the README's recipes: a LAN name, Caddy, nginx). An open inbox has
// no such lock: it, its API and the live link answer only to the site's own names (PUBLIC_URL's,
// ALLOWED_HOSTS), IP addresses and localhost; any other name gets 421, saying what to set, and
// the log says it once. Decision 025.
import { beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const inboxPaths = [
  '/farm-sales',
  '/farm-sales/updates',
  '/farm-sales/saved-replies',
  '/farm-sales/insights',
  '/api/insights',
  '/api/submissions',
  '/api/submissions.csv',
  '/api/submissions/1/replies',
]
const visitorPaths = ['/', '/healthz', '/favicon.svg', '/manifest.webmanifest']

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

const post = (server: RunningServer, path: string, headers: Record<string, string>, body: unknown) =>
  rawRequest(server.url, {
    path,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

const lead = { name: 'Ann Baker', email: 'ann@example.com', message: 'Any honey left?' }

describe('an open inbox (the shipped defaults: no PUBLIC_URL, no ALLOWED_HOSTS, no password)', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
    expect((await post(server, '/api/submissions', {}, lead)).status).toBe(201)
  })

  it.each(['rebind.evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', 'farm', 'xn--frm-fla.example'])(
    'refuses Host %s with 421 on the inbox, its API and the live link, and shows none of it',
    async (name) => {
      const port = new URL(server.url).port
      for (const host of [name, `${name}:${port}`, name.toUpperCase(), `${name}.`]) {
        for (const path of inboxPaths) {
          const answer = await get(server, path, { Host: host })
          expect({ host, path, status: answer.status }).toEqual({ host, path, status: 421 })
          expect(answer.text).not.toMatch(/Ann Baker|ann@example\.com|submission-card/)
        }
        for (const method of ['PATCH', 'DELETE']) {
          const answer = await rawRequest(server.url, {
            method,
            path: '/api/submissions/1',
            headers: { Host: host, 'Content-Type': 'application/json' },
            ...(method === 'DELETE' ? {} : { body: '{"status":"handled"}' }),
          })
          expect({ method, status: answer.status }).toEqual({ method, status: 421 })
        }
        expect(await upgrade(server, { Host: host })).toBe(421)
      }
      const stored = (await (await fetch(`${server.url}/api/submissions`)).json()) as Array<{ status: string }>
      expect(stored.map((row) => row.status)).toEqual(['new'])
    },
  )

  it('says on the page and in the API the exact setting to add, and logs it once per name', async () => {
    const page = await get(server, '/farm-sales', { Host: 'farm.lan:3000', Accept: 'text/html' })
    expect(page.status).toBe(421)
    expect(page.text).toContain('Unexpected Application Error!')
    expect(page.text).toContain(
      'This inbox does not answer to the name farm.lan while it has no password. Set ALLOWED_HOSTS=farm.lan (or OWNER_PASSWORD) and restart the site.',
    )
    const api = await get(server, '/api/submissions', { Host: 'farm.lan' })
    expect(api.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(api.text)).toEqual({
      error:
        'This inbox does not answer to the name farm.lan while it has no password. Set ALLOWED_HOSTS=farm.lan (or OWNER_PASSWORD) and restart the site.',
    })
    expect(await upgrade(server, { Host: 'farm.lan' })).toBe(421)
    const said = server
      .output()
      .split('\n')
      .filter((line) => line.includes('the open inbox was asked for by the name farm.lan'))
    expect(said).toHaveLength(1)
    expect(JSON.parse(said[0]!)).toMatchObject({ level: 40, name: 'farm.lan', setting: 'ALLOWED_HOSTS=farm.lan' })
  })

  it('stops logging refused names after twenty, however many an attacker sprays', async () => {
    for (let i = 0; i < 40; i++) await get(server, '/api/submissions', { Host: `spray-${i}.evil.example` })
    const said = server
      .output()
      .split('\n')
      .filter((line) => line.includes('the open inbox was asked for by the name'))
    expect(said.length).toBeLessThanOrEqual(20)
    expect(said.some((line) => line.includes('spray-39'))).toBe(false)
  })

  it('shows a stranger name no count of the inbox in the page’s header data either', async () => {
    const root = await get(server, '/?_data=root', { Host: 'farm.lan:3000' })
    expect(root.status).toBe(200)
    expect(JSON.parse(root.text)).toMatchObject({ newSubmissions: null, failedReplies: null })
    const own = await get(server, '/?_data=root', { Host: '127.0.0.1' })
    expect(JSON.parse(own.text).newSubmissions).not.toBeNull()
  })

  it('answers the visitors’ pages to any name: they show nothing of the inbox', async () => {
    for (const path of visitorPaths) {
      const answer = await get(server, path, { Host: 'farm.lan:3000' })
      expect({ path, status: answer.status }).toEqual({ path, status: 200 })
      expect(answer.text).not.toMatch(/Ann Baker|ann@example\.com/)
    }
    expect((await post(server, '/api/submissions', { Host: 'farm.lan:3000' }, lead)).status).toBe(201)
  })

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', 'localhost.', '[::1]', '10.0.0.7', '192.168.1.20'])(
    'opens the inbox on Host %s (an address or localhost) as before',
    async (name) => {
      const port = new URL(server.url).port
      for (const host of [name, `${name}:${port}`]) {
        expect((await get(server, '/api/submissions', { Host: host })).status).toBe(200)
        expect((await get(server, '/farm-sales', { Host: host })).status).toBe(200)
      }
      expect(await upgrade(server, { Host: `${name}:${port}` })).toBe(101)
    },
  )

  it('reads the Host, not an untrusted X-Forwarded-Host, either way', async () => {
    const rebound = { Host: 'evil.example', 'X-Forwarded-Host': '127.0.0.1' }
    expect((await get(server, '/api/submissions', rebound)).status).toBe(421)
    expect(await upgrade(server, rebound)).toBe(421)
    const local = { Host: '127.0.0.1', 'X-Forwarded-Host': 'evil.example' }
    expect((await get(server, '/api/submissions', local)).status).toBe(200)
  })
})

describe('an open inbox with PUBLIC_URL, ALLOWED_HOSTS and a trusted proxy', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({
      env: {
        PUBLIC_URL: 'https://farm.example',
        ALLOWED_HOSTS: 'www.farm.example, Shop.Farm.Example',
        TRUST_PROXY: '1',
      },
    })
  })

  it('opens on the site’s own names, in any case, refuses every other and names the whole setting', async () => {
    for (const host of ['farm.example', 'WWW.farm.example', 'shop.farm.example:443']) {
      expect((await get(server, '/farm-sales', { Host: host })).status).toBe(200)
      expect(await upgrade(server, { Host: host, Origin: `http://${host}` })).toBe(101)
    }
    for (const host of ['evil.example', 'farm.example.evil.example', 'notfarm.example']) {
      const answer = await get(server, '/api/submissions', { Host: host })
      expect(answer.status).toBe(421)
      expect(JSON.parse(answer.text).error).toContain(
        `Set ALLOWED_HOSTS=farm.example,www.farm.example,shop.farm.example,${host}`,
      )
    }
  })

  it('behind the trusted proxy, judges the name the visitor asked for (X-Forwarded-Host) and the Host both', async () => {
    expect(
      (await get(server, '/farm-sales', { Host: '127.0.0.1:3000', 'X-Forwarded-Host': 'farm.example' })).status,
    ).toBe(200)
    // A rebound page's script sets X-Forwarded-Host itself, where a proxy passes it through unchecked.
    for (const path of ['/farm-sales', '/api/submissions', '/api/submissions.csv']) {
      expect((await get(server, path, { Host: 'rebind.evil.example', 'X-Forwarded-Host': 'localhost' })).status).toBe(
        421,
      )
    }
    expect(await upgrade(server, { Host: 'rebind.evil.example', 'X-Forwarded-Host': 'farm.example' })).toBe(421)
    expect(
      (await get(server, '/farm-sales', { Host: 'farm.example', 'X-Forwarded-Host': 'evil.example' })).status,
    ).toBe(421)
    expect(await upgrade(server, { Host: 'farm.example', 'X-Forwarded-Host': 'evil.example' })).toBe(421)
  })

  it('refuses a forwarded host that is not a host name with 400, before it becomes the page’s address', async () => {
    for (const forwarded of ['evil example', 'a/b', 'x@y', '']) {
      const answer = await get(server, '/', { Host: 'farm.example', 'X-Forwarded-Host': forwarded })
      expect({ forwarded, status: answer.status }).toEqual({ forwarded, status: forwarded === '' ? 200 : 400 })
    }
  })
})

describe('an open inbox with TRUST_PROXY naming a proxy that is not the peer', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { TRUST_PROXY: '10.9.9.9' } })
  })

  it('judges the Host and ignores X-Forwarded-Host from the untrusted peer, on pages and the live link alike', async () => {
    const rebound = { Host: 'evil.example', 'X-Forwarded-Host': 'localhost' }
    expect((await get(server, '/farm-sales', rebound)).status).toBe(421)
    expect(await upgrade(server, rebound)).toBe(421)
    const local = { Host: `127.0.0.1:${new URL(server.url).port}`, 'X-Forwarded-Host': 'evil.example' }
    expect((await get(server, '/farm-sales', local)).status).toBe(200)
    expect(await upgrade(server, local)).toBe(101)
  })
})

// The README's `docker run` line: FARM_NAME, FARM_PRODUCT, OWNER_PASSWORD and SESSION_SECRET,
// no PUBLIC_URL, no ALLOWED_HOSTS; browsed at http://farm.lan:3000 as its HTTPS section says.
describe('the README’s docker run settings, reached by a LAN name', () => {
  const password = 'choose-a-long-one'
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({
      env: {
        FARM_NAME: 'Willow Creek Farm',
        FARM_PRODUCT: 'Seasonal Produce',
        OWNER_PASSWORD: password,
        SESSION_SECRET: 'a'.repeat(64),
      },
    })
  })

  const lan = { Host: 'farm.lan:3000', Origin: 'http://farm.lan:3000' }

  it('serves the page and the form, signs the owner in, shows the inbox and opens the live link', async () => {
    const page = await get(server, '/', { Host: lan.Host })
    expect(page.status).toBe(200)
    expect(page.text).toContain('Willow Creek Farm')
    expect((await post(server, '/api/submissions', lan, lead)).status).toBe(201)

    const signIn = await rawRequest(server.url, {
      path: '/sign-in',
      headers: { ...lan, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password, redirectTo: '/farm-sales' }).toString(),
    })
    expect(signIn.status).toBe(302)
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!
    const inbox = await get(server, '/farm-sales', { Host: lan.Host, Cookie: cookie })
    expect(inbox.status).toBe(200)
    expect(inbox.text).toContain('Ann Baker')
    expect(await upgrade(server, { ...lan, Cookie: cookie })).toBe(101)
    expect(server.output()).not.toContain('the open inbox was asked for')
  })

  it('shows a rebound name (no cookie of the owner’s) nothing but what any visitor sees', async () => {
    const rebound = { Host: 'rebind.evil.example:3000' }
    const inbox = await get(server, '/farm-sales', rebound)
    expect(inbox.status).toBe(302)
    expect(inbox.headers.location).toBe('/sign-in?redirectTo=%2Ffarm-sales')
    const api = await get(server, '/api/submissions', rebound)
    expect(api.status).toBe(401)
    expect(api.text).not.toContain('Ann Baker')
    expect(await upgrade(server, rebound)).toBe(401)
  })
})

// The README's proxy recipes: TRUST_PROXY=1 and OWNER_PASSWORD, no PUBLIC_URL, with the headers
// each proxy sends. Caddy's reverse-proxy keeps the Host and adds X-Forwarded-For, -Proto and
// -Host; the README's nginx lines set Host, X-Forwarded-Proto and X-Forwarded-For, and the upgrade.
describe('the README’s Caddy and nginx recipes', () => {
  const password = 'choose-a-long-one'
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { TRUST_PROXY: '1', OWNER_PASSWORD: password } })
  })

  const proxies = {
    caddy: {
      Host: 'farm.example',
      'X-Forwarded-For': '203.0.113.7',
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'farm.example',
    },
    nginx: {
      Host: 'farm.example',
      'X-Forwarded-For': '203.0.113.8',
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'farm.example',
    },
  }

  it.each(Object.entries(proxies))(
    'behind %s: the page, a lead, a Secure sign-in, the inbox and the live link all answer',
    async (_proxy, headers) => {
      const origin = { ...headers, Origin: 'https://farm.example' }
      expect((await get(server, '/', headers)).status).toBe(200)
      expect((await post(server, '/api/submissions', origin, lead)).status).toBe(201)
      const signIn = await rawRequest(server.url, {
        path: '/sign-in',
        headers: { ...origin, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password, redirectTo: '/farm-sales' }).toString(),
      })
      expect(signIn.status).toBe(302)
      expect(String(signIn.headers['set-cookie'])).toMatch(/; Secure/i)
      const cookie = String(signIn.headers['set-cookie']).split(';')[0]!
      const inbox = await get(server, '/farm-sales', { ...headers, Cookie: cookie })
      expect(inbox.status).toBe(200)
      expect(inbox.text).toContain('Ann Baker')
      expect(await upgrade(server, { ...origin, Cookie: cookie })).toBe(101)
    },
  )
})
