// POST /api/submissions in its plain spelling is answered by Express without Remix; every
// other spelling reaches the route module. Both call one receiveJson (and so receive), so an attacker
// gains nothing by choosing one: the same answers, the same headers, one shared limit.
import Sqlite from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { defaults } from '#server/config'
import { storedRows } from '#tests/support/database'
import { rawRequest, type RawAnswer } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

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
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
  })

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
  const serve = serverPerFile()
  beforeAll(async () => {
    // The shipped default: the harness lifts it for other suites.
    server = await serve({ env: { SUBMISSION_RATE_LIMIT: defaults.SUBMISSION_RATE_LIMIT } })
  })

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

// The same eight submissions through the three doors: JSON to the plain path (Express), JSON to
// another spelling (the route module), and the home page's form without JavaScript. Each must
// store the same row, or refuse with the same messages, because all three call `receive`.
describe('the three doors of a submission', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    // The shipped fill time, so a fresh form token trips it; the rate limit stays lifted, as
    // 24 posts from one address are the point here (its own tests run at the shipped value).
    server = await serve({ env: { MIN_FILL_SECONDS: defaults.MIN_FILL_SECONDS } })
  })

  /** A form token as the home page hands it out: signed, and younger than the fill time. */
  async function freshToken() {
    const page = await (await fetch(`${server.url}/`)).text()
    return /name="formToken" value="([^"]+)"/.exec(page)![1]!
  }

  const ok = { name: 'Ada Fielding', email: 'ada@example.com', message: 'Eggs for Saturday, please.' }
  const kinds: Array<{ kind: string; fields: () => Promise<Record<string, string>> }> = [
    { kind: 'a valid one', fields: async () => ok },
    {
      kind: 'accents, emoji and line breaks',
      fields: async () => ({ name: 'Zoë Brûlée', email: 'zoe@example.com', message: 'Miel 🍯\r\nmerci !' }),
    },
    { kind: 'blank fields', fields: async () => ({ name: '', email: '', message: ' ' }) },
    { kind: 'a malformed email', fields: async () => ({ ...ok, email: 'ada.example.com' }) },
    { kind: 'a message past its limit', fields: async () => ({ ...ok, message: 'm'.repeat(5_001) }) },
    { kind: 'a control character in the name', fields: async () => ({ ...ok, name: 'Ada\u0007' }) },
    { kind: 'a filled honeypot', fields: async () => ({ ...ok, website: 'http://spam.example' }) },
    { kind: 'a form sent too fast', fields: async () => ({ ...ok, formToken: await freshToken() }) },
  ]

  const newest = () => storedRows(server.databasePath).at(-1)
  /** What a door did with it: the row it stored (if any) and the messages it refused with. */
  async function through(door: 'api' | 'route' | 'form', fields: Record<string, string>) {
    const before = newest()?.id
    let refused: string[] = []
    if (door === 'form') {
      const answer = await rawRequest(server.url, {
        path: '/?index',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
        body: new URLSearchParams(fields).toString(),
      })
      expect([303, 400]).toContain(answer.status)
      refused = [...answer.text.matchAll(/id="(?:name|email|message)-error"[^>]*>([^<]+)</g)].map((m) => m[1]!)
    } else {
      const answer = await post(server, door === 'api' ? plain : throughRemix, JSON.stringify(fields))
      expect([201, 202, 400]).toContain(answer.status)
      if (answer.status === 400) refused = Object.values(JSON.parse(answer.text).errors as Record<string, string>)
    }
    const row = newest()
    const stored =
      row && row.id !== before
        ? { name: row.name, email: row.email, message: row.message, spam: row.spam_reasons }
        : null
    return { stored, refused }
  }

  it.each(kinds)('$kind: the same row stored, or the same refusal, by every door', async ({ fields }) => {
    const api = await through('api', await fields())
    const route = await through('route', await fields())
    const form = await through('form', await fields())
    expect(route).toEqual(api)
    expect(form).toEqual(api)
    // Each kind does what it is for: stored, set aside or refused.
    expect(api.stored !== null || api.refused.length > 0).toBe(true)
  })

  it('sets aside the trapped ones and keeps the clean ones in the inbox', () => {
    const rows = storedRows(server.databasePath)
    expect(rows.filter((row) => row.spam_reasons === null)).toHaveLength(6)
    expect(rows.filter((row) => row.spam_reasons === '["honeypot"]')).toHaveLength(3)
    expect(rows.filter((row) => row.spam_reasons === '["filled_too_fast"]')).toHaveLength(3)
  })
})
