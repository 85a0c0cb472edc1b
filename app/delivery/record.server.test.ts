import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { migrationsFolder } from '#tests/support/database'
import { tempDatabasePath } from '#tests/support/server'
import { deliveryRecord, owe } from './record.server'

let database: OpenDatabase | undefined
afterEach(() => database?.close())

it('starts the day of trying of what waits behind a failing receiver, and keeps an earlier start', () => {
  database = openDatabase(tempDatabasePath(), migrationsFolder)
  const { db, sqlite } = database
  const lead = sqlite
    .prepare("INSERT INTO submissions (name, email, message, created_at) VALUES ('Ann', 'ann@example.com', 'Eggs?', 1)")
    .run().lastInsertRowid
  const at = new Date('2026-11-26T08:00:00Z')
  for (let n = 0; n < 3; n++) owe(db, { kind: 'webhook-post', submissionId: Number(lead), receiptKey: `msg_${n}` }, at)
  const earlier = new Date('2026-11-25T08:00:00Z')
  sqlite.prepare('UPDATE deliveries SET failing_since = ? WHERE id = 1').run(earlier.getTime())
  const record = deliveryRecord(db)
  const later = new Date('2026-11-26T09:00:00Z')
  record.deferred([1, 2], later, at)
  record.deferred([3], later)
  const rows = sqlite
    .prepare('SELECT id, next_attempt_at AS next, failing_since AS since FROM deliveries ORDER BY id')
    .all()
  expect(rows).toEqual([
    { id: 1, next: later.getTime(), since: earlier.getTime() },
    { id: 2, next: later.getTime(), since: at.getTime() },
    // Left for a burst's window, not for a failure: its clock does not start.
    { id: 3, next: later.getTime(), since: null },
  ])
})
