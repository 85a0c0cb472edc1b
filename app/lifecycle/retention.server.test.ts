import { join } from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { createInbox } from '#app/inbox/inbox.server'
import { SubmissionEvents, type SubmissionEvent } from '#app/live/events.server'
import { tempDatabasePath } from '#tests/support/server'
import { startRetention } from './retention.server'

const dayMs = 24 * 60 * 60 * 1000
const now = Date.parse('2026-11-24T02:00:00Z')
let database: OpenDatabase
afterEach(() => database.close())

function seeded() {
  database = openDatabase(tempDatabasePath(), join(import.meta.dirname, '../../drizzle'))
  const insert = database.sqlite.prepare(
    'INSERT INTO submissions (name, email, message, created_at, status, spam_reasons) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const add = (name: string, daysOld: number, status: 'new' | 'handled', spam = false) =>
    insert.run(name, `${name}@example.com`, 'Honey?', now - daysOld * dayMs, status, spam ? '["link"]' : null)
  add('old-handled', 400, 'handled')
  add('old-new', 400, 'new')
  add('young-handled', 10, 'handled')
  add('old-spam', 40, 'new', true)
  add('young-spam', 5, 'new', true)
  const events = new SubmissionEvents()
  const published: SubmissionEvent[] = []
  events.subscribe((event) => published.push(event))
  let logged = ''
  const log = pino(new Writable({ write: (chunk, _encoding, done) => ((logged += chunk), done()) }))
  const inbox = createInbox({ db: database.db, events, writes: database.writes })
  const left = () => database.sqlite.prepare('SELECT name FROM submissions ORDER BY id').pluck().all() as string[]
  return { inbox, published, left, logged: () => logged, log }
}

it('keeps handled submissions for good when HANDLED_RETENTION_DAYS is unset; old spam goes', async () => {
  const { inbox, left, logged, log } = seeded()
  const retention = startRetention({ inbox, spamDays: () => 30, handledDays: () => null, log, now: () => now })
  await retention.done
  retention.stop()
  expect(left()).toEqual(['old-handled', 'old-new', 'young-handled', 'young-spam'])
  expect(logged()).toContain('"purged":1')
  expect(logged()).not.toContain('past their retention')
})

it('deletes handled submissions older than HANDLED_RETENTION_DAYS (never new ones), logs how many, and tells the tabs', async () => {
  const { inbox, published, left, logged, log } = seeded()
  const retention = startRetention({ inbox, spamDays: () => 30, handledDays: () => 365, log, now: () => now })
  await retention.done
  retention.stop()
  expect(left()).toEqual(['old-new', 'young-handled', 'young-spam'])
  expect(logged()).toMatch(/"deleted":1,"olderThanDays":365,"msg":"deleted handled submissions past their retention"/)
  expect(published).toEqual([
    { type: 'SUBMISSIONS_REMOVED', ids: [4] },
    { type: 'SUBMISSIONS_REMOVED', ids: [1] },
  ])
})

it('deletes and empties in batches, every removal told', async () => {
  const { inbox, published } = seeded()
  const insert = database.sqlite.prepare(
    "INSERT INTO submissions (name, email, message, created_at, spam_reasons) VALUES ('bot', 'bot@example.com', 'win', ?, '[\"link\"]')",
  )
  for (let n = 0; n < 1_203; n++) insert.run(now)
  expect(await inbox.emptySpam()).toBe(1_205)
  expect(published.map((event) => ('ids' in event ? event.ids.length : 0))).toEqual([500, 500, 205])
  expect(database.sqlite.prepare('SELECT count(*) FROM submissions WHERE spam_reasons IS NOT NULL').pluck().get()).toBe(
    0,
  )
  expect(await inbox.remove(1)).toBe(true)
  expect(await inbox.remove(1)).toBe(false)
})
