// PATCH /api/submissions/:id: the owner's changes, refused clearly for anything else, and
// never changing stored data when refused, by whatever spelling or method it arrives.
import Sqlite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storedRows } from '#tests/support/database'
import { connectLive, type LiveClient } from '#tests/support/live-client'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

async function store(server: RunningServer, name: string): Promise<number> {
  const answer = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, email: 'guest@example.com', message: 'Any eggs?' }),
  })
  return (await answer.json()).data.id
}

function change(server: RunningServer, path: string, body: string, headers: Record<string, string> = {}) {
  return rawRequest(server.url, {
    method: 'PATCH',
    path,
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...headers },
    body,
  })
}

const statuses = (server: RunningServer) => storedRows(server.databasePath).map((row) => row.status)

describe('PATCH /api/submissions/:id on an open inbox', () => {
  let server: RunningServer
  let live: LiveClient
  let id: number
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
    live = await connectLive(server.wsUrl)
    id = await store(server, 'Hattie')
    await live.next()
  })
  // Registered after the server's hook, so it runs before it: the live link closes first.
  afterAll(() => live.close())

  it('marks it handled, answers {data, counts}, stores it and tells every watcher the same', async () => {
    const answer = await change(server, `/api/submissions/${id}`, '{"status":"handled"}')
    expect(answer.status).toBe(200)
    const { data, counts } = JSON.parse(answer.text)
    expect(data).toMatchObject({ id, name: 'Hattie', status: 'handled' })
    expect(counts).toEqual(
      expect.arrayContaining([
        { kind: 'status', value: 'new', count: 0, at: expect.any(Number) },
        { kind: 'status', value: 'handled', count: 1, at: expect.any(Number) },
      ]),
    )
    // The same counts, each read by the server when it sent it (the frame first).
    const frame = await live.next()
    expect(frame).toEqual({ type: 'SUBMISSION_UPDATED', data, counts: expect.any(Array) })
    const values = (list: Array<{ at: number }>) => list.map(({ at: _at, ...count }) => count)
    expect(values(frame.counts)).toEqual(values(counts))
    expect(frame.counts[0]!.at).toBeLessThan(counts[0].at)
    expect(statuses(server)).toEqual(['handled'])
    expect(await (await fetch(`${server.url}/api/submissions`)).json()).toEqual([data])

    const back = await change(server, `/api/submissions/${id}`, '{"status":"new"}')
    expect(JSON.parse(back.text).data.status).toBe('new')
    expect((await live.next()).data).toMatchObject({ id, status: 'new' })
  })

  it('takes a submission out of the spam folder with {"spam": false}', async () => {
    const trapped = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Fast Fay', email: 'fay@example.com', message: 'Pears?', website: 'x' }),
    })
    expect(trapped.status).toBe(202)
    const [spam] = await (await fetch(`${server.url}/api/submissions?spam=true`)).json()
    const answer = await change(server, `/api/submissions/${spam.id}`, '{"spam":false}')
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text).data).toMatchObject({ id: spam.id, spam: null })
    expect((await live.next()).type).toBe('SUBMISSION_UPDATED')
    expect(await (await fetch(`${server.url}/api/submissions?spam=true`)).json()).toEqual([])
    const inbox = await (await fetch(`${server.url}/api/submissions`)).json()
    expect(inbox.map((submission: { name: string }) => submission.name)).toEqual(['Fast Fay', 'Hattie'])
  })

  it.each([
    { why: 'an unknown id', path: '/api/submissions/999999', body: '{"status":"handled"}', status: 404 },
    { why: 'an id that is not a number', path: '/api/submissions/abc', body: '{"status":"handled"}', status: 404 },
    { why: 'a negative id', path: '/api/submissions/-1', body: '{"status":"handled"}', status: 404 },
    { why: 'an id too long', path: `/api/submissions/${'9'.repeat(40)}`, body: '{"status":"handled"}', status: 404 },
    { why: 'a fractional id', path: '/api/submissions/1.5', body: '{"status":"handled"}', status: 404 },
    { why: 'an unknown status', path: '/api/submissions/ID', body: '{"status":"done"}', status: 400 },
    { why: 'spam set to true', path: '/api/submissions/ID', body: '{"spam":true}', status: 400 },
    { why: 'two changes at once', path: '/api/submissions/ID', body: '{"status":"handled","spam":false}', status: 400 },
    {
      why: 'a field besides the change',
      path: '/api/submissions/ID',
      body: '{"status":"handled","name":"Eve"}',
      status: 400,
    },
    { why: 'malformed JSON', path: '/api/submissions/ID', body: '{"status":', status: 400 },
    { why: 'a JSON array', path: '/api/submissions/ID', body: '["handled"]', status: 400 },
    { why: 'JSON null', path: '/api/submissions/ID', body: 'null', status: 400 },
    { why: 'an empty body', path: '/api/submissions/ID', body: '', status: 400 },
  ])('answers $why with $status JSON and changes nothing', async ({ path, body, status }) => {
    const before = storedRows(server.databasePath)
    const answer = await change(server, path.replace('ID', String(id)), body)
    expect(answer.status).toBe(status)
    expect(typeof JSON.parse(answer.text).error).toBe('string')
    expect(storedRows(server.databasePath)).toEqual(before)
  })

  it('answers other content types with 415, other methods with 405, and a large body with 413', async () => {
    const before = storedRows(server.databasePath)
    const form = await change(server, `/api/submissions/${id}`, 'status=handled', {
      'Content-Type': 'application/x-www-form-urlencoded',
    })
    expect(form.status).toBe(415)
    for (const method of ['GET', 'POST', 'PUT']) {
      const body = method === 'GET' ? undefined : '{"status":"handled"}'
      const answer = await rawRequest(server.url, {
        method,
        path: `/api/submissions/${id}`,
        headers: body ? { 'Content-Type': 'application/json', 'Content-Length': String(body.length) } : {},
        body,
      })
      expect({ method, status: answer.status }).toEqual({ method, status: 405 })
      expect(answer.headers.allow).toBe('PATCH, DELETE')
    }
    // Deleting needs the signed-in owner: an open inbox refuses it, saying what to set.
    const deleted = await rawRequest(server.url, { method: 'DELETE', path: `/api/submissions/${id}` })
    expect(deleted.status).toBe(403)
    expect(JSON.parse(deleted.text).error).toContain('claim the site first')
    const huge = JSON.stringify({ status: 'handled', pad: 'x'.repeat(20_000) })
    expect((await change(server, `/api/submissions/${id}`, huge)).status).toBe(413)
    expect(storedRows(server.databasePath)).toEqual(before)
  })

  it('refuses a change sent from another site’s page', async () => {
    const answer = await change(server, `/api/submissions/${id}`, '{"status":"handled"}', {
      Origin: 'https://evil.example',
      'Sec-Fetch-Site': 'cross-site',
    })
    expect(answer.status).toBe(403)
    expect(statuses(server)).not.toContain('handled')
  })
})

describe('PATCH /api/submissions/:id behind OWNER_PASSWORD', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { OWNER_PASSWORD: 'only the owner' } })
  })

  it('refuses a visitor with 401 on every spelling and changes nothing', async () => {
    const id = await store(server, 'Private Pip')
    for (const path of [
      `/api/submissions/${id}`,
      `/api/submission%73/${id}`,
      `/API/Submissions/${id}`,
      `/api/submissions/${id}/`,
      `/api/submissions/${id}//`,
    ]) {
      const answer = await change(server, path, '{"status":"handled"}')
      expect({ path, status: answer.status }).toEqual({ path, status: 401 })
    }
    const sqlite = new Sqlite(server.databasePath, { readonly: true })
    expect(sqlite.prepare('SELECT status FROM submissions').pluck().all()).toEqual(['new'])
    sqlite.close()
  })
})
