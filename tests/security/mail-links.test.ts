// An email field cannot carry mail headers (cc, bcc, subject) into the owner's mailto: link,
// through the API or the no-JS form; an address stored before this rule is linked harmlessly.
import Sqlite from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { storedRows } from '#tests/support/database'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const hostile = [
  'bob@x.co?cc=a@evil.example&bcc=spy@evil.example&subject=Invoice',
  'bob@x.co?bcc=spy@evil.example',
  'bob@x.co&bcc=spy@evil.example',
  'bob%3Fbcc=spy@x.co',
  'bob@x.co%3Fbcc%3Dspy',
  'bob@x.co bcc=spy',
  'bob@x.co#bcc',
  'bob@x.co/?bcc=spy',
]

describe('email addresses that smuggle mail headers', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
  })

  it.each(hostile)('the API refuses %s as an invalid email and stores nothing', async (email) => {
    const answer = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Bob', email, message: 'Hello' }),
    })
    expect(answer.status).toBe(400)
    expect((await answer.json()).errors).toEqual({ email: 'Invalid email format' })
    expect(storedRows(server.databasePath)).toEqual([])
  })

  it('the no-JS form shows the message under the field and keeps the value', async () => {
    const answer = await rawRequest(server.url, {
      path: '/?index',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: new URLSearchParams({ name: 'Bob', email: hostile[0]!, message: 'Hello' }).toString(),
    })
    expect(answer.status).toBe(400)
    expect(answer.text).toContain('Invalid email format')
    expect(storedRows(server.databasePath)).toEqual([])
  })

  it('links an address stored before the rule to that address alone', async () => {
    const sqlite = new Sqlite(server.databasePath)
    sqlite
      .prepare('INSERT INTO submissions (name, email, message, created_at) VALUES (?, ?, ?, ?)')
      .run('Old Bob', hostile[0], 'From last year', Date.now())
    sqlite.close()
    const html = await (await fetch(`${server.url}/farm-sales`)).text()
    const hrefs = [...html.matchAll(/href="(mailto:[^"]*)"/g)].map(([, href]) => href!.replaceAll('&amp;', '&'))
    expect(hrefs).toHaveLength(1)
    const link = new URL(hrefs[0]!)
    expect(link.search).toBe('')
    expect(hrefs[0]).not.toMatch(/[?&]/)
    expect(decodeURIComponent(link.pathname)).toBe(hostile[0])
  })
})
