// A 'Tell me when it's ready' is erased with its person: their waits, and the record that they
// were told, in the forgetting's one transaction; someone else's stay.
import { dirname, join } from 'node:path'
import pino from 'pino'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { SubmissionEvents } from '#app/live/events.server'
import { tempDatabasePath } from '#tests/support/server'
import { createErasureList } from './erasures.server'
import { createPeople } from './people.server'

const log = pino({ level: 'silent' })
let database: OpenDatabase
afterEach(() => database?.close())

it('forgets a person’s waits and news with them, in any spelling of their mailbox', async () => {
  const path = tempDatabasePath()
  database = openDatabase(path, join(import.meta.dirname, '../../drizzle'))
  const { sqlite } = database
  for (const [product, email] of [
    ['strawberries', 'Ann@Example.com'],
    ['honey', 'ann@example.com'],
    ['strawberries', 'bob@example.com'],
  ] as const) {
    sqlite
      .prepare('INSERT INTO product_waits (product, email, address_key, asked_at) VALUES (?, ?, ?, 1)')
      .run(product, email, email.toLowerCase())
    sqlite
      .prepare('INSERT OR IGNORE INTO product_news (product, season, address_key, told_at) VALUES (?, 2027, ?, 1)')
      .run(product, email.toLowerCase())
  }
  const people = createPeople({
    db: database.db,
    sqlite,
    writes: database.writes,
    events: new SubmissionEvents(),
    erasureList: createErasureList({ db: database.db, file: join(dirname(path), 'erasures.jsonl'), log }),
    siteUrl: () => null,
    log,
  })
  await people.forget('ANN@example.com', null)
  expect(sqlite.prepare('SELECT address_key FROM product_waits').pluck().all()).toEqual(['bob@example.com'])
  expect(sqlite.prepare('SELECT address_key FROM product_news').pluck().all()).toEqual(['bob@example.com'])
})
