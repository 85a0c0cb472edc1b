// The insights are the owner's: every spelling of their page and API refuses a stranger and a
// helper; a range is taken only as offered, and a value an attacker makes (repeated, padded,
// huge, other digits) gets the one error shape, never a 500; words in the data are text, never HTML.
import Sqlite from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#app/data/database.server'
import { migrationsFolder } from '#tests/support/database'
import { rawRequest } from '#tests/support/raw-request'
import { seedSeason } from '#tests/support/season'
import { tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'
import { addPerson, fromSomewhere, signInAs } from '#tests/support/team'

const ownerPassword = 'the owner’s long password'
let server: RunningServer
let owner: string
let helper: string
const databasePath = tempDatabasePath()

const serve = serverPerFile()
beforeAll(async () => {
  openDatabase(databasePath, migrationsFolder).close()
  seedSeason(databasePath, Date.now())
  // A product named by the farm as if it were markup, asked about by one lead.
  const sqlite = new Sqlite(databasePath)
  sqlite
    .prepare(
      `INSERT INTO submissions (name, email, message, analysis, created_at) VALUES ('Lead m', 'm@example.com', 'Hi', ?, ?)`,
    )
    .run(
      JSON.stringify({
        intents: ['order'],
        products: ['<img src=x onerror=alert(1)>'],
        sentiment: { label: 'neutral', score: 0 },
        urgency: { level: 'normal', cues: [] },
        spam: { isSpam: false, reasons: [] },
        source: 'llm',
      }),
      Date.now() - 60_000,
    )
  sqlite.close()
  server = await serve({ databasePath, env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback' } })
  owner = await signInAs(server.url, '', ownerPassword)
  helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
})

const get = (path: string, cookie?: string) =>
  rawRequest(server.url, {
    path,
    method: 'GET',
    headers: { ...fromSomewhere(), ...(cookie ? { Cookie: cookie } : {}) },
  })

describe('who may read them', () => {
  const apiSpellings = [
    '/api/insights',
    '/API/insights',
    '/api//insights',
    '//api/insights',
    '/api/insights/',
    '/api/insight%73',
  ]
  const pageSpellings = [
    '/farm-sales/insights',
    '/farm%2Dsales/insights',
    '/farm-sales//insights',
    '/farm-sales/insights/',
    '/farm-sales/insights?_data=routes%2Ffarm-sales_.insights',
  ]

  it.each(apiSpellings)('%s: 401 for a stranger, 403 for a helper, in the one error shape', async (path) => {
    const stranger = await get(`${path}?weeks=4`)
    expect([401, 404]).toContain(stranger.status)
    expect(JSON.parse(stranger.text)).toEqual({ error: expect.any(String) })
    const refused = await get(`${path}?weeks=4`, helper)
    expect([403, 404]).toContain(refused.status)
    expect(refused.text).not.toContain('Eggs are back')
    expect(refused.text).not.toContain('"leads"')
  })

  it.each(pageSpellings)('%s: never the figures for a stranger or a helper', async (path) => {
    const stranger = await get(path)
    // Remix answers a data request's redirect as 204 with where to go.
    if (stranger.status === 204) expect(stranger.headers['x-remix-redirect']).toMatch(/^\/sign-in\?/)
    else expect([302, 401, 404]).toContain(stranger.status)
    const refused = await get(path, helper)
    expect([403, 404]).toContain(refused.status)
    for (const answer of [stranger, refused]) {
      expect(answer.text).not.toContain('Eggs are back')
      expect(answer.text).not.toContain('leads in the last')
    }
  })

  it('refuses a helper on a HEAD too, and every other method for anyone', async () => {
    const head = await rawRequest(server.url, { path: '/api/insights', method: 'HEAD', headers: { Cookie: helper } })
    expect(head.status).toBe(403)
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const answer = await rawRequest(server.url, {
        path: '/api/insights?weeks=4',
        method,
        headers: { Cookie: owner, 'Content-Type': 'application/json', 'Content-Length': '2' },
        body: '{}',
      })
      expect(answer.status, method).toBe(405)
      const page = await rawRequest(server.url, { path: '/farm-sales/insights', method, headers: { Cookie: owner } })
      expect(page.status, `${method} page`).toBe(405)
    }
  })
})

describe('the range', () => {
  it.each([
    'weeks=12&weeks=12',
    'weeks[]=12',
    'weeks=%EF%BC%91%EF%BC%92',
    'weeks=12%00',
    'weeks=+12',
    'weeks=0x0c',
    'weeks=52.0',
    'weeks=Infinity',
    `weeks=${'9'.repeat(5000)}`,
    'weeks=%ff',
  ])('?%.40s: the API refuses what is not a range offered (400), the page falls back', async (query) => {
    const api = await get(`/api/insights?${query}`, owner)
    expect(api.status).toBe(query === 'weeks[]=12' ? 200 : 400)
    const body = JSON.parse(api.text)
    if (api.status === 400)
      expect(body).toEqual({ error: 'The "weeks" parameter must be given once, as one of 4, 12, 52.' })
    else expect(body.weeks).toBe(12)
    const page = await get(`/farm-sales/insights?${query}`, owner)
    expect(page.status).toBe(200)
    if (api.status === 400) expect(page.text).toContain('There is no such range: showing 12 weeks.')
  })
})

describe('words in the data', () => {
  it('are shown as text on the page and carried whole in the links, never as markup', async () => {
    const page = await get('/farm-sales/insights?weeks=4', owner)
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('<img src=x')
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;: 1, up from 0')
    const figures = JSON.parse((await get('/api/insights?weeks=4', owner)).text)
    const product = figures.products.find((row: { product: string }) => row.product.startsWith('<img'))
    expect(product.inbox).toMatch(/^\/farm-sales\?product=%3Cimg\+src%3Dx\+onerror%3Dalert%281%29%3E&after=\d+$/)
    const listed = JSON.parse((await get(product.inbox.replace('/farm-sales', '/api/submissions'), owner)).text)
    expect(listed.map((lead: { name: string }) => lead.name)).toEqual(['Lead m'])
  })
})
