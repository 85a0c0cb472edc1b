import Sqlite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { serverPerTest } from '#tests/support/server-per-test'

const serve = serverPerTest('SIGKILL')

/** Breaks the database under the running server the way a bad migration or a stray admin would. */
function renameTable(databasePath: string, from: string, to: string) {
  const sqlite = new Sqlite(databasePath, { fileMustExist: true })
  try {
    sqlite.exec(`ALTER TABLE ${from} RENAME TO ${to}`)
  } finally {
    sqlite.close()
  }
}
const breakDatabase = (path: string) => renameTable(path, 'submissions', 'submissions_parked')
const repairDatabase = (path: string) => renameTable(path, 'submissions_parked', 'submissions')

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok", …} while the database answers, 503 JSON while it fails, and recovers', async () => {
    const server = await serve()
    const healthz = async () => {
      const response = await fetch(`${server.url}/healthz`)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      return { status: response.status, body: await response.json() }
    }

    expect(await healthz()).toEqual({
      status: 200,
      body: {
        status: 'ok',
        failedWritesLastMinute: 0,
        outbox: null,
        reader: 'ready',
        mailbox: { state: 'off', idle: null },
        offsite: 'off',
      },
    })

    breakDatabase(server.databasePath)
    const failing = await healthz()
    expect(failing.status).toBe(503)
    expect(failing.body.error).toEqual(expect.any(String))
    expect(failing.body.error.length).toBeGreaterThan(0)
    expect(JSON.stringify(failing.body)).not.toMatch(/SqliteError|no such table|\n\s+at /)

    repairDatabase(server.databasePath)
    expect(await healthz()).toEqual({
      status: 200,
      body: {
        status: 'ok',
        failedWritesLastMinute: 0,
        outbox: null,
        reader: 'ready',
        mailbox: { state: 'off', idle: null },
        offsite: 'off',
      },
    })
  })
})

describe('GET /healthz with the owner mailed about leads', () => {
  it('reports how many leads wait to be mailed and how long the oldest has waited', async () => {
    // Nothing listens on port 1: every mail waits.
    const server = await serve({
      env: { SMTP_URL: 'smtp://127.0.0.1:1', NOTIFY_EMAIL: 'owner@farm.example' },
    })
    const health = async () => (await fetch(`${server.url}/healthz`)).json()
    expect(await health()).toEqual({
      status: 'ok',
      failedWritesLastMinute: 0,
      outbox: { unsent: 0, oldestUnsentSeconds: 0 },
      reader: 'ready',
      // No mailbox set: the link is off.
      mailbox: { state: 'off', idle: null },
      offsite: 'off',
    })
    const posted = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ann', email: 'ann@example.com', message: 'Any honey left?' }),
    })
    expect(posted.status).toBe(201)
    await expect.poll(async () => (await health()).outbox, { timeout: 5_000 }).toMatchObject({ unsent: 1 })
    expect((await health()).outbox.oldestUnsentSeconds).toEqual(expect.any(Number))
  })
})

// Strings that must never reach the logs: what visitors typed, and query strings.
const secrets = {
  name: 'Zebedee Quillfeather',
  otherName: 'Ottoline\nBrackenridge',
  email: 'zebedee.quill@secret-orchard.example',
  message: 'Marmalade-7731 line one\nBUTTERCUP-SECRET line two\r\nthird line',
  formName: 'Oriel Thistlewood',
  formEmail: 'oriel@form-post.example',
  formMessage: 'FORM-MESSAGE-4471\nsecond line of the form',
  brokenName: 'Perpetua Fallowfield',
  brokenEmail: 'perpetua@broken-database.example',
  brokenMessage: 'WHEN-BROKEN-5520\nshould not be logged either',
  queryEmail: 'peeping.tom@query-string.example',
  queryToken: 'QS-TOKEN-9913',
}
// Every line of every secret on its own, so a value split at a newline is still caught.
const needles = Object.values(secrets).flatMap((text) => text.split(/\r?\n/))
const anyEmail = /[\w.+-]+@[\w-]+(\.[\w-]+)+/

interface Made {
  method: string
  path: string
  status: number
}

describe('request logs', () => {
  it('write one JSON line per request with method, path and status, and nothing a visitor typed', async () => {
    const server = await serve()
    const made: Made[] = []

    async function send(method: string, path: string, init: RequestInit = {}) {
      const response = await fetch(`${server.url}${path}`, { method, redirect: 'manual', ...init })
      await response.arrayBuffer()
      made.push({ method, path: path.split('?')[0]!, status: response.status })
      return response
    }
    const postJson = (path: string, body: unknown) =>
      send('POST', path, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    const postForm = (fields: Record<string, string>) =>
      send('POST', '/?index', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      })
    const query = `?ref=${encodeURIComponent(secrets.queryEmail)}&token=${secrets.queryToken}`

    expect((await postJson('/api/submissions', secrets)).status).toBe(201)
    // A newline in the name may be refused by stricter validation; either answer must log the same way.
    await postJson('/api/submissions', { ...secrets, name: secrets.otherName })
    expect((await postJson(`/api/submissions${query}`, secrets)).status).toBe(201)
    expect(
      (await postForm({ name: secrets.formName, email: secrets.formEmail, message: secrets.formMessage })).status,
    ).toBe(303)
    expect((await send('GET', '/')).status).toBe(200)
    expect((await send('GET', `/${query}`)).status).toBe(200)
    expect((await send('GET', '/farm-sales')).status).toBe(200)
    expect((await send('GET', `/api/submissions${query}`)).status).toBe(200)
    expect((await send('GET', '/no-such-page')).status).toBe(404)
    expect((await send('GET', '/favicon.svg')).status).toBe(200)
    // A route without an action (the root layout, as `/` without `?index` reaches it): the
    // router's own error goes through Remix's handleError.
    expect(
      (
        await send('POST', '/', {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ message: secrets.formMessage }).toString(),
        })
      ).status,
    ).toBe(405)

    // An error path: the database breaks under the server.
    breakDatabase(server.databasePath)
    const failed = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: secrets.brokenName, email: secrets.brokenEmail, message: secrets.brokenMessage }),
    })
    made.push({ method: 'POST', path: '/api/submissions', status: failed.status })
    expect(failed.status).toBe(500)
    const failure = await failed.json()
    expect(failure.error).toEqual(expect.any(String))
    expect(JSON.stringify(failure)).not.toMatch(/SqliteError|no such table|\n\s+at /)
    expect(
      (
        await postForm({
          name: secrets.brokenName,
          email: secrets.brokenEmail,
          message: secrets.brokenMessage,
        })
      ).status,
    ).toBe(500)
    expect((await send('GET', '/healthz')).status).toBe(503)
    repairDatabase(server.databasePath)
    // Readable again, but the two posts' writes failed within the minute: the check still says so.
    expect((await send('GET', '/healthz')).status).toBe(503)

    // Stopping flushes every line; 'close' means all of it has been read.
    expect(await server.stop('SIGTERM')).toBe(0)
    const output = server.output()
    const lines = output.split('\n').filter((line) => line.length > 0)

    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object'
      } catch {
        return true
      }
    })
    expect(notJson).toEqual([])

    const entries = lines.map((line) => JSON.parse(line))
    // The start-up probes in startServer (as many as the start took) come before the test's first request.
    const requests = entries.filter((entry) => entry.req && entry.res)
    const probes = requests.findIndex((entry) => entry.req.path !== '/healthz')
    expect(probes).toBeGreaterThan(0)
    const logged = requests
      .slice(probes)
      .map((entry): Made => ({ method: entry.req.method, path: entry.req.path, status: entry.res.status }))
    const key = ({ method, path, status }: Made) => `${method} ${path} ${status}`
    expect(logged.map(key).sort()).toEqual(made.map(key).sort())
    // info for what was served, warn for what was refused, error for what failed; each with its time.
    for (const entry of entries.filter((line) => line.req && line.res)) {
      const level = entry.res.status >= 500 ? 50 : entry.res.status >= 400 ? 40 : 30
      expect({ status: entry.res.status, level: entry.level }).toEqual({ status: entry.res.status, level })
      expect(entry.responseTime).toEqual(expect.any(Number))
    }

    for (const needle of needles) expect(output, `the logs hold "${needle}"`).not.toContain(needle)
    expect(output).not.toMatch(anyEmail)
    expect(output).not.toMatch(/\?ref=|token=/)

    // The failure is logged, as an error, with its cause but without the submission.
    const errors = entries.filter((entry) => entry.level >= 50 && !entry.req)
    expect(errors.length).toBeGreaterThan(0)
    expect(JSON.stringify(errors)).toMatch(/no such table/)
  })
})
