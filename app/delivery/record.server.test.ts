import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { migrationsFolder } from '#tests/support/database'
import { tempDatabasePath } from '#tests/support/server'
import { deliveryRecord, owe } from './record.server'

let database: OpenDatabase | undefined
afterEach(() => database?.close())

const at = new Date('2026-11-26T08:00:00Z')

/** A fresh database holding one lead. */
function withOneLead() {
  database = openDatabase(tempDatabasePath(), migrationsFolder)
  const { db, sqlite } = database
  const lead = sqlite
    .prepare("INSERT INTO submissions (name, email, message, created_at) VALUES ('Ann', 'ann@example.com', 'Eggs?', 1)")
    .run().lastInsertRowid
  return { db, sqlite, lead }
}

it('starts the day of trying of what waits behind a failing receiver, and keeps an earlier start', () => {
  const { db, sqlite, lead } = withOneLead()
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

it('keeps a bounce read back before the sender marks its try: what the sender learns after never writes over it', () => {
  const { db, sqlite, lead } = withOneLead()
  for (let n = 0; n < 5; n++) owe(db, { kind: 'owner-mail', submissionId: Number(lead) }, at)
  const record = deliveryRecord(db)
  // Rows 1 to 4 come back while on their way; row 5 is the control, marked as a sender marks it.
  for (const id of [1, 2, 3, 4]) record.bounced(id, '550 No such user')
  record.sent([1, 5], at)
  record.retrying({ id: 2, attempts: 0, failingSince: null }, at, '421 Try later', at)
  record.failed([3], '554 Refused')
  record.gaveUp([{ id: 4, lastError: '421 Try later' }])
  const states = () => sqlite.prepare('SELECT id, state, last_error AS why FROM deliveries ORDER BY id').all()
  expect(states()).toEqual([
    { id: 1, state: 'bounced', why: '550 No such user' },
    { id: 2, state: 'bounced', why: '550 No such user' },
    { id: 3, state: 'bounced', why: '550 No such user' },
    { id: 4, state: 'bounced', why: '550 No such user' },
    { id: 5, state: 'sent', why: null },
  ])
  // A bounce after the 250 (the usual order) is written over 'sent'.
  record.bounced(5, '550 Mailbox full')
  expect(states()[4]).toEqual({ id: 5, state: 'bounced', why: '550 Mailbox full' })
})

it('replaces only what still waits: a mail already sent stays sent', () => {
  const { db, sqlite, lead } = withOneLead()
  const person = sqlite
    .prepare("INSERT INTO team (name, email, role, created_at) VALUES ('Sam', 'sam@farm.example', 'helper', 1)")
    .run().lastInsertRowid
  for (let n = 0; n < 2; n++) owe(db, { kind: 'invitation-mail', memberId: Number(person) }, at)
  owe(db, { kind: 'owner-mail', submissionId: Number(lead) }, at)
  const record = deliveryRecord(db)
  record.sent([1], at)
  record.replaced({ kind: 'invitation-mail', memberId: Number(person) }, 'A new invitation link replaced it')
  expect(sqlite.prepare('SELECT id, state FROM deliveries ORDER BY id').all()).toEqual([
    { id: 1, state: 'sent' },
    { id: 2, state: 'skipped' },
    { id: 3, state: 'queued' },
  ])
})
