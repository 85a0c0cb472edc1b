// POST /api/submissions in its plain spelling is answered by Express without Remix; every
// other spelling reaches the route module. Both call one receiveSubmission, so an attacker
// gains nothing by choosing one: the same answers, the same headers, one shared limit.
import Sqlite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaults } from '../../server/config'
import { storedRows } from '../support/database'
import { rawRequest, type RawAnswer } from '../support/raw-request'
import { startServer, type RunningServer } from '../support/server'

const plain = '/api/submissions'
const throughRemix = '/api/submission%73'

const post = (server: RunningServer, path: string, body: string, type = 'application/json') =>
  rawRequest(server.url, {
    path,
    headers: { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)) },
    body,
  })

/** What a caller can tell apart: status, the headers that matter, and the JSON without its row id and time. */
function seen(answer: RawAnswer) {
  const body = JSON.parse(answer.text)
  if (body.data) body.data = { ...body.data, id: 'an id', createdAt: 'a time' }
  const headers = ['content-type', 'content-security-policy', 'x-content-type-options', 'retry-after', 'allow']
  return {
    status: answer.status,
    headers: Object.fromEntries(headers.map((name) => [name, answer.headers[name] ?? null])),
    body,
  }
}

const form = { name: 'Ada Fielding', email: 'ada@example.com', message: 'Could I order a dozen eggs for Saturday?' }
const cases: Array<{ name: string; body: string; type?: string; status: number }> = [
  { name: 'a valid submission', body: JSON.stringify(form), status: 201 },
  { name: 'one with a byte order mark', body: `\uFEFF${JSON.stringify(form)}`, status: 201 },
  { name: 'missing fields', body: JSON.stringify({ name: '', email: 'nope' }), status: 400 },
  { name: 'not JSON', body: '{"name": "Ada",', status: 400 },
  { name: 'an array', body: JSON.stringify([form]), status: 400 },
  { name: 'null', body: 'null', status: 400 },
  { name: 'another media type', body: JSON.stringify(form), type: 'text/plain', status: 415 },
  { name: 'a filled honeypot', body: JSON.stringify({ ...form, website: 'http://spam.example' }), status: 202 },
]

describe('the two ways in to POST /api/submissions', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.stop())

  it.each(cases)('answer $name alike ($status)', async ({ body, type, status }) => {
    const direct = seen(await post(server, plain, body, type))
    const routed = seen(await post(server, throughRemix, body, type))
    expect(direct.status).toBe(status)
    expect(direct.headers['content-type']).toBe('application/json; charset=utf-8')
    // Each sends its own nonce.
    const policy = (headers: Record<string, unknown>) =>
      String(headers['content-security-policy']).replace(/'nonce-[^']+'/, 'a nonce')
    expect(policy(direct.headers)).toBe(policy(routed.headers))
    expect({ ...direct, headers: { ...direct.headers, 'content-security-policy': null } }).toEqual({
      ...routed,
      headers: { ...routed.headers, 'content-security-policy': null },
    })
  })

  it('store what they accept the same way', () => {
    const rows = storedRows(server.databasePath).filter((row) => row.email === form.email)
    // A valid one and one with a byte order mark, each sent both ways; the honeypot's pair is set aside.
    expect(rows.filter((row) => row.spam_reasons === null)).toHaveLength(4)
    expect(rows.filter((row) => row.spam_reasons !== null)).toHaveLength(2)
    expect(new Set(rows.map((row) => `${row.name}|${row.message}|${row.analysis !== null}`))).toEqual(
      new Set([`${form.name}|${form.message}|true`]),
    )
  })

  it('answer a broken database with the same JSON 500 and no details', async () => {
    const sqlite = new Sqlite(server.databasePath)
    sqlite.exec('ALTER TABLE submissions RENAME TO submissions_parked')
    try {
      const direct = seen(await post(server, plain, JSON.stringify(form)))
      const routed = seen(await post(server, throughRemix, JSON.stringify(form)))
      expect(direct.status).toBe(500)
      expect(direct.body).toEqual({ error: 'Something went wrong on our side. Please try again.' })
      expect(routed.body).toEqual(direct.body)
      expect(routed.status).toBe(500)
    } finally {
      sqlite.exec('ALTER TABLE submissions_parked RENAME TO submissions')
      sqlite.close()
    }
  })
})

describe('the submission limit across the two ways in', () => {
  let server: RunningServer
  beforeAll(async () => {
    // The shipped default: the harness lifts it for other suites.
    server = await startServer({ env: { SUBMISSION_RATE_LIMIT: defaults.SUBMISSION_RATE_LIMIT } })
  })
  afterAll(() => server.stop())

  it('is one count: spent through Remix, the plain spelling is refused too, and the reverse', async () => {
    const limit = Number(defaults.SUBMISSION_RATE_LIMIT)
    const paths = Array.from({ length: limit }, (_, i) => (i % 2 === 0 ? throughRemix : plain))
    for (const path of paths) expect((await post(server, path, JSON.stringify(form))).status).toBe(201)
    for (const path of [plain, throughRemix, '/API/Submissions', '/api/submissions/']) {
      const answer = seen(await post(server, path, JSON.stringify(form)))
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 429,
        body: { error: 'Too many submissions from your address. Please wait a minute and try again.' },
      })
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0)
    }
    expect(storedRows(server.databasePath)).toHaveLength(limit)
  })
})
