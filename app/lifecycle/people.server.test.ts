import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import Sqlite from 'better-sqlite3'
import pino from 'pino'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { SubmissionEvents, type SubmissionEvent } from '#app/live/events.server'
import { migrationsUpTo } from '#tests/support/database'
import { forgettable, seedPersonEverywhere, tracesInFile } from '#tests/support/person'
import { tempDatabasePath } from '#tests/support/server'
import { writeBackup } from './backup-files.server'
import { createErasureList } from './erasures.server'
import { createPeople } from './people.server'
import { createSignedLinks } from '#app/updates/signed-links.server'
import { createSubscribers } from '#app/updates/subscribers.server'

/** The team's first person, the owner (drizzle/0016). */
const owner = 1

const migrations = join(import.meta.dirname, '../../drizzle')
const opened: OpenDatabase[] = []
afterEach(() => {
  for (const database of opened.splice(0)) database.close()
})

function open(path = tempDatabasePath()) {
  const database = openDatabase(path, migrations)
  opened.push(database)
  return database
}

function peopleOver(database: OpenDatabase) {
  const events = new SubmissionEvents()
  const published: SubmissionEvent[] = []
  events.subscribe((event) => published.push(event))
  const people = createPeople({
    db: database.db,
    sqlite: database.sqlite,
    writes: database.writes,
    events,
    erasureList: createErasureList({
      db: database.db,
      file: join(dirname(database.sqlite.name), 'erasures.jsonl'),
      log: pino({ level: 'silent' }),
    }),
    siteUrl: () => 'https://farm.example',
    log: pino({ level: 'silent' }),
  })
  return { people, published }
}

function withNeighbour(database: OpenDatabase) {
  database.sqlite
    .prepare(
      "INSERT INTO submissions (name, email, message, created_at) VALUES ('Bob Stays', 'bob@example.com', 'Eggs please', 1)",
    )
    .run()
}

const rowsLeft = (database: OpenDatabase) =>
  Object.fromEntries(
    ['submissions', 'replies', 'deliveries', 'subscribers', 'orders', 'order_lines', 'order_events'].map((table) => [
      table,
      database.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get(),
    ]),
  )

it('exports all a person sent and all sent to them or about them', () => {
  const database = open()
  const { lead } = seedPersonEverywhere(database.sqlite)
  const { people } = peopleOver(database)
  const everything = people.exportOf('ottoline.q@ZANZIBARMAIL.test')!
  expect(everything.submissions).toHaveLength(1)
  expect(everything.submissions[0]).toMatchObject({
    id: lead,
    name: forgettable.name,
    message: forgettable.message,
    status: 'handled',
    analysis: { intents: ['product_inquiry'] },
    orders: [
      {
        status: 'confirmed',
        pickUp: { date: '2026-12-05', from: '09:00', to: '12:00' },
        lines: [{ product: 'honey', quantity: 2, unit: 'jar', priceCents: 1100 }],
        totalCents: 1100,
        history: [{ type: 'order.confirmed' }],
      },
    ],
    mailsToThem: [
      { kind: 'acknowledgement', text: `Dear ${forgettable.name}, thank you.`, status: 'sent' },
      { kind: 'reply', text: `Hello ${forgettable.name}, the marmalade is kept.` },
    ],
    mailsToTheOwner: [{ status: 'sent' }],
    webhookPosts: [{ webhookId: `msg_${lead}`, status: 'sent' }],
    pushesToTheOwnersPhones: [
      {
        status: 'sent',
        payload: {
          type: 'NEW_SUBMISSION',
          id: lead,
          name: forgettable.name,
          url: `https://farm.example/farm-sales#submission-${lead}`,
        },
      },
    ],
  })
  expect(everything.subscription).toMatchObject({
    status: 'subscribed',
    consent: `Yes, ${forgettable.name} wants the farm's updates`,
    updatesMailed: [{ subject: 'Honey is in', status: 'sent' }],
  })
  expect(people.exportOf('nobody@example.com')).toBeNull()
})

it('forgets a person in every table, leaving no byte of them in the file or its WAL, and the neighbour untouched', async () => {
  const database = open()
  withNeighbour(database)
  const { lead } = seedPersonEverywhere(database.sqlite)
  expect(tracesInFile(database.sqlite.name, forgettable.traces)).toEqual(forgettable.traces)
  const { people, published } = peopleOver(database)
  expect(await people.forget(' OTTOLINE.Q@zanzibarmail.test ', owner)).toEqual({
    submissions: 1,
    subscription: true,
    removed: [lead],
  })
  expect(rowsLeft(database)).toEqual({
    submissions: 1,
    replies: 0,
    deliveries: 0,
    subscribers: 0,
    orders: 0,
    order_lines: 0,
    order_events: 0,
  })
  expect(published).toEqual([{ type: 'SUBMISSIONS_REMOVED', ids: [lead] }])
  expect(tracesInFile(database.sqlite.name, forgettable.traces)).toEqual([])
  expect(tracesInFile(database.sqlite.name, ['Bob Stays', 'Eggs please'])).toHaveLength(2)
  // Recorded as a salted hash, its time and who of the team asked, never the address.
  const recorded = database.sqlite
    .prepare('SELECT address_hash, mailbox_hash, erased_at, erased_by FROM erasures')
    .all()
  expect(recorded).toEqual([
    {
      address_hash: expect.stringMatching(/^[\w-]{43}$/),
      mailbox_hash: expect.stringMatching(/^[\w-]{43}$/),
      erased_at: expect.any(Number),
      erased_by: owner,
    },
  ])
  expect(await people.forget(forgettable.email, owner)).toBeNull()
})

it('measured: secure deletion turned on only at the moment of forgetting leaves their words behind', async () => {
  // The same history written the old way: secure deletion off until the forget itself.
  const database = open()
  database.sqlite.pragma('secure_delete = OFF')
  database.sqlite.exec("INSERT INTO submissions_search (submissions_search, rank) VALUES ('secure-delete', 0)")
  seedPersonEverywhere(database.sqlite)
  database.sqlite.pragma('wal_checkpoint(TRUNCATE)')
  database.sqlite.pragma('secure_delete = ON')
  database.sqlite.exec("INSERT INTO submissions_search (submissions_search, rank) VALUES ('secure-delete', 1)")
  const { people } = peopleOver(database)
  await people.forget(forgettable.email, owner)
  // Their earlier, purged spam still lies in the search index's segments and free space.
  expect(tracesInFile(database.sqlite.name, forgettable.traces).length).toBeGreaterThan(0)
})

it('a database written before secure deletion is cleaned once when opened, so forgetting then leaves nothing', async () => {
  const path = tempDatabasePath()
  // As the release before secure deletion left it: not yet cleaned, the search index's option unset.
  const old = openDatabase(path, migrationsUpTo('0013_owner_push'))
  old.sqlite.pragma('secure_delete = OFF')
  old.sqlite.exec("INSERT INTO submissions_search (submissions_search, rank) VALUES ('secure-delete', 0)")
  seedPersonEverywhere(old.sqlite, forgettable, Date.now(), 'before one delivery engine')
  old.sqlite.pragma('user_version = 0')
  old.close()
  const database = open(path)
  expect(database.sqlite.pragma('user_version', { simple: true })).toBe(1)
  await peopleOver(database).people.forget(forgettable.email, owner)
  expect(tracesInFile(path, forgettable.traces)).toEqual([])
})

it('forgets again, at start, a person a restored backup still holds', async () => {
  const database = open()
  withNeighbour(database)
  seedPersonEverywhere(database.sqlite)
  const dir = dirname(database.sqlite.name)
  const backup = writeBackup({ databasePath: database.sqlite.name, dir: join(dir, 'backups'), at: new Date() })
  await peopleOver(database).people.forget(forgettable.email, owner)

  // The backup, from before the forgetting, put in the database's place beside the same list.
  const restoredPath = join(dir, 'restored.db')
  copyFileSync(backup.file, restoredPath)
  const restored = open(restoredPath)
  expect(tracesInFile(restoredPath, ['Ottoline'])).toEqual(['Ottoline'])
  const { people } = peopleOver(restored)
  expect(people.reapplyErasures()).toBe(1)
  expect(rowsLeft(restored)).toMatchObject({ submissions: 1, subscribers: 0, replies: 0, orders: 0, order_lines: 0 })
  expect(tracesInFile(restoredPath, forgettable.traces)).toEqual([])
  // Once recorded in this database too, a second start has nothing to do.
  expect(people.reapplyErasures()).toBe(0)
})

it('a subscriber known by another spelling of their mailbox stays forgotten after a restore', async () => {
  const database = open()
  database.sqlite
    .prepare(
      "INSERT INTO subscribers (email, address_key, name, status, added_by, created_at) VALUES ('Jo.Bloggs+news@gmail.com', 'jobloggs@gmail.com', 'Jo', 'subscribed', 'visitor', 1)",
    )
    .run()
  const dir = dirname(database.sqlite.name)
  const backup = writeBackup({ databasePath: database.sqlite.name, dir: join(dir, 'backups'), at: new Date() })
  expect(await peopleOver(database).people.forget('jobloggs@gmail.com', owner)).toMatchObject({
    submissions: 0,
    subscription: true,
  })
  const restoredPath = join(dir, 'restored.db')
  copyFileSync(backup.file, restoredPath)
  const restored = open(restoredPath)
  expect(peopleOver(restored).people.reapplyErasures()).toBe(1)
  expect(rowsLeft(restored)).toMatchObject({ subscribers: 0 })
})

it('finds a person by their address whatever the case of its ASCII letters, as SQLite compares them', async () => {
  const database = open()
  database.sqlite
    .prepare(
      "INSERT INTO submissions (name, email, message, created_at) VALUES ('Örjan', 'ÖRJAN@Exämple.com', 'Hej', 1)",
    )
    .run()
  const { people } = peopleOver(database)
  expect(people.exportOf('ÖRJAN@exämple.COM')?.submissions).toHaveLength(1)
  expect(await people.forget('ÖRJAN@EXÄMPLE.com'.replace('Ä', 'ä'), owner)).toMatchObject({
    submissions: 1,
    subscription: false,
  })
})

it('a forget whose list file cannot be written still forgets, empties the log and tells the tabs; the next start adds it to the file', async () => {
  const database = open()
  seedPersonEverywhere(database.sqlite)
  const { people, published } = peopleOver(database)
  const file = join(dirname(database.sqlite.name), 'erasures.jsonl')
  rmSync(file)
  mkdirSync(file)
  expect(await people.forget(forgettable.email, owner)).toMatchObject({ submissions: 1 })
  expect(published).toHaveLength(1)
  expect(tracesInFile(database.sqlite.name, forgettable.traces)).toEqual([])
  rmSync(file, { recursive: true })
  writeFileSync(
    file,
    `${JSON.stringify({ salt: database.sqlite.prepare("SELECT key FROM signing_keys WHERE name = 'erasures'").pluck().get() })}\n{"hash":"torn`,
  )
  const list = createErasureList({ db: database.db, file, log: pino({ level: 'silent' }) })
  expect(list.unreadable).toBe(1)
  expect(list.reconcile()).toEqual([])
  // The torn line stays as it was; the record from the database follows on a line of its own.
  const lines = readFileSync(file, 'utf8').trim().split('\n')
  expect(lines).toHaveLength(3)
  expect(JSON.parse(lines[2]!)).toMatchObject({ hash: expect.any(String), mailbox: expect.any(String) })
})

it('empties the log once a reader in another connection (a backup being copied) lets go', async () => {
  const database = open()
  seedPersonEverywhere(database.sqlite)
  const reader = new Sqlite(database.sqlite.name, { readonly: true })
  reader.exec('BEGIN')
  reader.prepare('SELECT count(*) FROM submissions').get()
  const { people } = peopleOver(database)
  await people.forget(forgettable.email, owner)
  // The reader's snapshot still needs the old pages: the log cannot be emptied yet.
  expect(tracesInFile(database.sqlite.name, forgettable.traces).length).toBeGreaterThan(0)
  reader.exec('COMMIT')
  reader.close()
  await expect.poll(() => tracesInFile(database.sqlite.name, forgettable.traces), { timeout: 5_000 }).toEqual([])
  people.stop()
})

it('a backup folder that cannot be written never stops the start; the database keeps the list', () => {
  const database = open()
  const blocked = join(dirname(database.sqlite.name), 'not-a-folder')
  writeFileSync(blocked, 'a file where the backup folder should be')
  let logged = ''
  const log = pino({ level: 'error' }, { write: (line: string) => void (logged += line) })
  const list = createErasureList({ db: database.db, file: join(blocked, 'erasures.jsonl'), log })
  expect(list.reconcile()).toEqual([])
  expect(logged).toContain('could not write the erasure list beside the backups')
})

it('an unsubscribe outlives erasure: a mailbox that left the updates and was then forgotten is never asked again, after a restore too', async () => {
  const database = open()
  const subscriber = database.sqlite.prepare(
    "INSERT INTO subscribers (email, address_key, name, status, added_by, unsubscribed_at, unsubscribed_by, created_at) VALUES (?, ?, 'Someone', ?, 'visitor', 1, 'them', 1)",
  )
  subscriber.run('Ann.Baker+news@gmail.com', 'annbaker@gmail.com', 'unsubscribed')
  subscriber.run('cy@example.com', 'cy@example.com', 'subscribed')
  const dir = dirname(database.sqlite.name)
  const backup = writeBackup({ databasePath: database.sqlite.name, dir: join(dir, 'backups'), at: new Date() })
  const { people } = peopleOver(database)
  await people.forget('annbaker@gmail.com', owner)
  await people.forget('cy@example.com', owner)
  const subscribers = createSubscribers({
    db: database.db,
    writes: database.writes,
    links: createSignedLinks({ db: database.db, publicUrl: () => 'https://farm.example' }),
    farmName: () => 'Willow Creek Farm',
    leftBeforeForgetting: people.leftBeforeForgetting,
  })
  // Written again in her name, by any spelling of her mailbox: she is not asked.
  expect(subscribers.mayAsk('ann.baker@gmail.com', new Date())).toBe(false)
  expect(subscribers.mayAsk('Ann.Baker+shop@gmail.com', new Date())).toBe(false)
  // Forgotten while still subscribed, Cy had not said no: a new message may ask again.
  expect(subscribers.mayAsk('cy@example.com', new Date())).toBe(true)
  // Nor can the owner add her back.
  expect(
    await subscribers.add({ email: 'ann.baker@gmail.com', name: 'Ann', note: 'asked at the stall' }),
  ).toMatchObject({ ok: false, status: 409 })
  expect(readFileSync(join(dir, 'erasures.jsonl'), 'utf8')).not.toMatch(/annbaker|gmail/)

  // A backup from before both forgettings, restored: the list's file says she had left.
  const restoredPath = join(dir, 'restored.db')
  copyFileSync(backup.file, restoredPath)
  const restored = open(restoredPath)
  const again = peopleOver(restored).people
  expect(again.reapplyErasures()).toBe(2)
  expect(again.leftBeforeForgetting('annbaker@gmail.com')).toBe(true)
  expect(again.leftBeforeForgetting('cy@example.com')).toBe(false)
})

it('keys a subscription kept before a domain had one form by it, so either spelling finds it', async () => {
  const database = open()
  database.sqlite
    .prepare(
      "INSERT INTO subscribers (email, address_key, name, status, added_by, unsubscribed_at, unsubscribed_by, created_at) VALUES ('Ann@Bücher.example', 'ann@bücher.example', 'Ann', 'unsubscribed', 'visitor', 1, 'them', 1)",
    )
    .run()
  const { people } = peopleOver(database)
  people.keyMailboxesInOneForm()
  expect(database.sqlite.prepare('SELECT address_key FROM subscribers').pluck().get()).toBe('ann@xn--bcher-kva.example')
  expect(await people.forget('ann@xn--bcher-kva.example', owner)).toMatchObject({ subscription: true })
  expect(people.leftBeforeForgetting('ann@bücher.example')).toBe(true)
})
