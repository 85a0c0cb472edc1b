// The inbox's view parameters, as an attacker would send them to the page, its data
// requests and the API: clear 400s for bad values, search text that is never FTS syntax,
// and nothing ever a 500.
import { beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '#tests/support/raw-request'
import { seedSubmissions } from '#tests/support/seed'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const hostileSearches = [
  '"',
  '""',
  '"unbalanced',
  'NEAR(honey eggs, 2)',
  'honey OR 1=1',
  'honey AND NOT eggs',
  '*',
  'honey*',
  '^honey',
  'name:ann',
  '{name email}: ann',
  '-',
  "'; DROP TABLE submissions; --",
  '%00',
  '\u0000',
  '\u202e',
  '🍐'.repeat(50),
  'x'.repeat(200),
  // One-letter words: as prefixes each would merge most of the index.
  'a b c d e f g h i j k l m n o p q r s t u v w x y z '.repeat(3).trim(),
]

describe('inbox view parameters', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
    seedSubmissions(server.databasePath, 40)
  })

  const paths = (query: string) => [
    `/api/submissions?${query}`,
    `/farm-sales?${query}`,
    `/farm-sales?${query}&_data=routes%2Ffarm-sales`,
  ]

  it.each(hostileSearches)('search text %j is plain text everywhere: 200, never an error', async (q) => {
    for (const path of paths(`q=${encodeURIComponent(q)}`)) {
      const answer = await rawRequest(server.url, { method: 'GET', path })
      expect({ path, status: answer.status }).toEqual({ path, status: 200 })
    }
    expect(server.output()).not.toMatch(/"level":50/)
  })

  it.each([
    ['q=' + 'x'.repeat(201), 'Search for at most 200 characters.'],
    ['q=a&q=b', 'The "q" parameter may be given only once.'],
    ['limit=99999999999999999999', 'The "limit" parameter must be a whole number from 1 to '],
    ['limit=-1', 'The "limit" parameter must be a whole number from 1 to '],
    ['before=1e5', 'The "before" parameter must be a submission id.'],
    ['before=' + '9'.repeat(16), 'The "before" parameter must be a submission id.'],
    ['after=0x10', 'The "after" parameter must be a submission id.'],
    ['intent=__proto__', 'The "intent" parameter must be one of'],
    ['urgency=HIGH', 'The "urgency" parameter must be high or normal.'],
    ['spam=1', 'The "spam" parameter must be true or false.'],
  ])('%s is a clear 400 on the API, the page and its data request', async (query, error) => {
    const api = await rawRequest(server.url, { method: 'GET', path: `/api/submissions?${query}` })
    expect(api.status).toBe(400)
    expect(JSON.parse(api.text).error).toContain(error)
    const page = await rawRequest(server.url, { method: 'GET', path: `/farm-sales?${query}` })
    expect(page.status).toBe(400)
    expect(page.text).toContain('This view’s address is not right')
    const data = await rawRequest(server.url, { method: 'GET', path: `/farm-sales?${query}&_data=routes%2Ffarm-sales` })
    expect(data.status).toBe(400)
    expect(JSON.parse(data.text).badQuery).toContain(error)
  })

  it('never lets the page list more than 50 or the API more than 500', async () => {
    expect((await rawRequest(server.url, { method: 'GET', path: '/farm-sales?limit=51' })).status).toBe(400)
    const page = await rawRequest(server.url, { method: 'GET', path: '/farm-sales?limit=50' })
    expect(page.text.match(/data-testid="submission-card"/g)).toHaveLength(40)
    expect((await rawRequest(server.url, { method: 'GET', path: '/api/submissions?limit=501' })).status).toBe(400)
  })

  it('keeps the view parameters out of the Link header’s host: it always points at this server', async () => {
    const answer = await rawRequest(server.url, {
      method: 'GET',
      path: '/api/submissions?limit=5&q=honey',
      headers: { Host: `127.0.0.1:${server.port}` },
    })
    const next = /<([^>]+)>; rel="next"/.exec(String(answer.headers.link))![1]!
    expect(new URL(next).origin).toBe(server.url)
    expect(new URL(next).pathname).toBe('/api/submissions')
  })
})
