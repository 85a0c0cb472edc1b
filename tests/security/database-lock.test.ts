// Another process holding the database's write lock (a backup, an `sqlite3` shell) never
// freezes the site: reads and /healthz keep answering, a write waits for the lock off the event
// loop and is stored once it is free, or after the wait fails with a clear answer (the form
// keeps what the visitor typed); nothing is acknowledged that was not stored, and /healthz
// reports the failed writes of the last minute.
import Sqlite from 'better-sqlite3'
import { afterEach, expect, it } from 'vitest'
import { catalogs } from '#app/language/catalogs.server'
import { storedRows } from '#tests/support/database'
import { serverPerTest } from '#tests/support/server-per-test'
import type { RunningServer } from '#tests/support/server'

const serve = serverPerTest()
let lock: Sqlite.Database | undefined
afterEach(() => {
  if (lock?.inTransaction) lock.exec('ROLLBACK')
  lock?.close()
  lock = undefined
})

/** Takes the write lock from another connection, as `sqlite3 farm.db 'BEGIN IMMEDIATE'` would. */
function holdWriteLock(server: RunningServer) {
  lock = new Sqlite(server.databasePath)
  lock.exec('BEGIN IMMEDIATE')
  return () => lock!.exec('ROLLBACK')
}

const lead = { name: 'Ann Baker', email: 'ann@example.com', message: 'Any honey left this week?' }

/** A request that records whether it has been answered yet. */
function tracked(answer: Promise<Response>) {
  const state = { settled: false, answer: answer.finally(() => (state.settled = true)) }
  return state
}

const postJson = (server: RunningServer) =>
  fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(lead),
  })

it('keeps answering reads and /healthz while a post waits for the lock, then stores the post once it is free', async () => {
  const server = await serve()
  const release = holdWriteLock(server)
  const post = tracked(postJson(server))
  const health = await fetch(`${server.url}/healthz`)
  expect(health.status).toBe(200)
  const listed = await fetch(`${server.url}/api/submissions`)
  expect(listed.status).toBe(200)
  expect(await listed.json()).toEqual([])
  // Both answered while the post still waits: the event loop was never held.
  expect(post.settled).toBe(false)
  release()
  const posted = await post.answer
  expect(posted.status).toBe(201)
  expect(storedRows(server.databasePath)).toMatchObject([{ name: 'Ann Baker' }])
})

it('answers a clear failure once the wait is over, keeps what the form held, stores nothing, and /healthz says writes failed', async () => {
  const server = await serve()
  const release = holdWriteLock(server)
  const [json, form] = await Promise.all([
    postJson(server),
    fetch(`${server.url}/?index`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: new URLSearchParams(lead).toString(),
    }),
  ])
  expect(json.status).toBe(500)
  expect(await json.json()).toEqual({ error: expect.any(String) })
  expect(form.status).toBe(500)
  const page = await form.text()
  expect(page).toContain(catalogs.en.couldNotSend().replace("'", '&#x27;').split('.')[0])
  expect(page).not.toContain('Unexpected Application Error')
  for (const value of [lead.name, lead.email, lead.message]) expect(page).toContain(value)
  expect(storedRows(server.databasePath)).toEqual([])

  const health = await fetch(`${server.url}/healthz`)
  expect(health.status).toBe(503)
  expect(await health.json()).toMatchObject({ status: 'error', failedWritesLastMinute: 2, outbox: null })

  release()
  expect((await postJson(server)).status).toBe(201)
  expect(storedRows(server.databasePath)).toHaveLength(1)
})
