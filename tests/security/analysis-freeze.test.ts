// No message can freeze the server: while hostile messages are read, /healthz keeps answering,
// each post is answered and stored (most of them set aside as spam: they are strings of links);
// a reading past its budget is abandoned. How fast is npm run bench:analysis's figure.
import { beforeAll, describe, expect, it } from 'vitest'
import { storedRows } from '#tests/support/database'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const hostile = {
  colons: '://'.repeat(1666),
  http: 'http://'.repeat(714),
  www: 'www.a'.repeat(1000),
  slashes: '/'.repeat(5000),
  'spaced urls': 'http://a.example/x '.repeat(260),
}

/** 201 for the inbox, 202 for what is set aside as spam: stored either way. */
const stored = [201, 202]

function post(server: RunningServer, message: string) {
  return fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Hostile Hal', email: 'hal@example.com', message }),
  })
}

/** Asks /healthz every 50 ms until stopped; resolves with every answer's status. */
function watchHealth(server: RunningServer) {
  let watching = true
  const answers: number[] = []
  const done = (async () => {
    while (watching) {
      answers.push((await fetch(`${server.url}/healthz`)).status)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return answers
  })()
  return () => {
    watching = false
    return done
  }
}

describe('hostile messages at the shipped analysis budget', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
  })

  it('keep /healthz answering while each post is answered and stored with an analysis', async () => {
    const stop = watchHealth(server)
    for (const message of Object.values(hostile)) expect(stored).toContain((await post(server, message)).status)
    const health = await stop()
    expect(health.length).toBeGreaterThan(0)
    expect(new Set(health)).toEqual(new Set([200]))
    const rows = storedRows(server.databasePath)
    expect(rows.map((row) => row.message)).toEqual(Object.values(hostile))
    for (const row of rows) expect(JSON.parse(String(row.analysis))).toMatchObject({ source: 'offline' })
  })

  it('reads a normal message posted right after a burst of hostile ones', async () => {
    const burst = Object.values(hostile).map((message) => post(server, message))
    const answer = await post(server, 'Do you have any honey left? Two jars please.')
    const { data } = await answer.json()
    expect(data.analysis).toMatchObject({ products: ['honey'] })
    for (const done of await Promise.all(burst)) expect(stored).toContain(done.status)
  })
})

describe('a reading past its budget', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    // The smallest budget, so that every reading runs out of time: the fallback path, end to end.
    server = await serve({ env: { ANALYSIS_TIMEOUT_MS: '1' } })
  })

  it('is abandoned: the submission is stored without an analysis, and the log says why without the message', async () => {
    // Long enough that reading it takes well over the 1 ms budget.
    const message = `Please keep this secret message out of the logs. ${'We would like eggs and honey. '.repeat(150)}`
    const answer = await post(server, message)
    expect(answer.status).toBe(201)
    expect((await answer.json()).data).toMatchObject({ analysis: null, aiResponse: null })
    expect(storedRows(server.databasePath)).toMatchObject([{ message, analysis: null }])
    await expect.poll(() => server.output()).toContain('offline analysis ran out of time')
    expect(server.output()).not.toContain(message)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })
})
