import { join } from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { tempDatabasePath } from '#tests/support/server'
import { createDeliveryEngine } from '#app/delivery/engine.server'
import { createOutboxSender } from './owner-mail-sender.server'
import { retryBaseMs, unreachableOwnerMail } from '#tests/support/owner-mail-settings'

const hourMs = 60 * 60 * 1000
let database: OpenDatabase | undefined
let stop: (() => Promise<void>) | undefined
afterEach(async () => {
  await stop?.()
  database?.close()
})

it('retries a mail the server could not take, with backoff, and gives up on one failing for a day, with an error line', async () => {
  database = openDatabase(tempDatabasePath(), join(import.meta.dirname, '../../drizzle'))
  const at = Date.now()
  const insert = database.sqlite.prepare(
    "INSERT INTO submissions (name, email, message, created_at) VALUES ('Ann', 'ann@example.com', 'Honey?', ?)",
  )
  const owe = database.sqlite.prepare(
    "INSERT INTO deliveries (kind, state, attempts, submission_id, next_attempt_at, failing_since, created_at, last_error) VALUES ('owner-mail', ?, ?, ?, ?, ?, ?, ?)",
  )
  // Failing for a day without a break, and new: only the first is given up.
  const first = insert.run(at - 25 * hourMs).lastInsertRowid
  owe.run('retrying', 9, first, at - 1, at - 24 * hourMs, at - 25 * hourMs, 'connect ECONNREFUSED 127.0.0.1:1')
  owe.run('queued', 0, insert.run(at - 60_000).lastInsertRowid, at - 1, null, at - 60_000, null)
  let logged = ''
  const log = pino(new Writable({ write: (chunk, _encoding, done) => ((logged += chunk), done()) }))
  const engine = createDeliveryEngine({ db: database.db, writes: database.writes, log, now: () => at })
  createOutboxSender({ engine, db: database.db, settings: () => unreachableOwnerMail, retryBaseMs })
  stop = engine.stop
  engine.start()
  await expect.poll(() => logged, { timeout: 10_000 }).toContain('could not mail the owner')
  const rows = database.sqlite
    .prepare(
      'SELECT state, attempts, next_attempt_at AS next, failing_since AS since, last_error AS error FROM deliveries ORDER BY id',
    )
    .all() as Array<{ state: string; attempts: number; next: number; since: number | null; error: string | null }>
  expect(rows[0]).toMatchObject({
    state: 'gave-up',
    attempts: 9,
    error: 'Gave up after a day of trying. connect ECONNREFUSED 127.0.0.1:1',
  })
  expect(rows[1]).toMatchObject({ state: 'retrying', attempts: 1, since: at })
  expect(rows[1]!.next).toBeGreaterThanOrEqual(at + 24_000)
  expect(rows[1]!.next).toBeLessThanOrEqual(at + 36_000)
  expect(rows[1]!.error).toMatch(/ECONNREFUSED/)
  expect(logged).toContain('gave up mailing the owner about these leads after a day of trying')
  expect(logged).toMatch(/"unsent":1/)
})
