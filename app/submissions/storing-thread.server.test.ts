import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import Sqlite from 'better-sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openDatabase } from '../db/database.server'
import { tempDatabasePath } from '../../tests/support/server'
import { createStoringThread, type StoringThread } from './storing-thread.server'
import type { NewSubmission } from './submission-store.server'

const migrationsFolder = join(import.meta.dirname, '../../drizzle')
const workerUrl = new URL('./storing-worker.mjs', import.meta.url)
const submission = (name: string, spamReasons: NewSubmission['spamReasons'] = null): NewSubmission => ({
  name,
  email: `${name.toLowerCase()}@example.com`,
  message: 'Any honey left?',
  aiResponse: null,
  analysis: null,
  createdAt: new Date('2026-06-10T09:00:00.000Z'),
  spamReasons,
})

function migrated(path = tempDatabasePath()) {
  openDatabase(path, migrationsFolder).close()
  return path
}

const rowsIn = (path: string, table = 'submissions') => {
  const sqlite = new Sqlite(path, { readonly: true })
  try {
    return sqlite.prepare(`SELECT * FROM ${table} ORDER BY id`).all() as Array<Record<string, unknown>>
  } finally {
    sqlite.close()
  }
}

let thread: StoringThread | undefined
afterEach(async () => {
  await thread?.close()
  thread = undefined
})

describe('the storing thread', () => {
  it('stores each batch in its own thread and answers once it is readable from another connection', async () => {
    const databasePath = migrated()
    thread = createStoringThread({ workerUrl, workerData: { databasePath, mailsOwner: false } })
    const [first, second] = await Promise.all([
      thread.write([submission('Ann'), submission('Bob')]),
      thread.write([submission('Cat')]),
    ])
    expect(first!.map((result) => result.ok && result.row.name)).toEqual(['Ann', 'Bob'])
    expect(second!.map((result) => result.ok && result.row)).toEqual([
      expect.objectContaining({ id: 3, name: 'Cat', status: 'new', createdAt: new Date('2026-06-10T09:00:00.000Z') }),
    ])
    expect(rowsIn(databasePath).map((row) => row.name)).toEqual(['Ann', 'Bob', 'Cat'])
  })

  it('queues a kept submission for the owner’s mail in the same transaction, and never spam', async () => {
    const databasePath = migrated()
    thread = createStoringThread({ workerUrl, workerData: { databasePath, mailsOwner: true } })
    const results = await thread.write([submission('Ann'), submission('Bot', ['honeypot'])])
    const [ann] = results.map((result) => result.ok && result.row.id)
    expect(rowsIn(databasePath, 'outbox').map((row) => row.submission_id)).toEqual([ann])
  })

  it('answers a row it cannot store with a reason that carries none of its values, and stores the rest', async () => {
    const databasePath = migrated()
    const sqlite = new Sqlite(databasePath)
    sqlite.exec(
      "CREATE TRIGGER refuse_mallory BEFORE INSERT ON submissions WHEN new.name = 'Mallory' BEGIN SELECT RAISE(ABORT, 'refused'); END",
    )
    sqlite.close()
    thread = createStoringThread({ workerUrl, workerData: { databasePath, mailsOwner: false } })
    const results = await thread.write([submission('Ann'), submission('Mallory'), submission('Bob')])
    expect(results.map((result) => result.ok)).toEqual([true, false, true])
    expect(results[1]).toEqual({ ok: false, failure: { message: 'refused', code: 'SQLITE_CONSTRAINT_TRIGGER' } })
    expect(rowsIn(databasePath).map((row) => row.name)).toEqual(['Ann', 'Bob'])
  })

  it('fails what a stopped thread held, says why, and starts a fresh thread for the next batch', async () => {
    const databasePath = join(dirname(tempDatabasePath()), 'not-yet', 'farm.db')
    // A file where the database's folder should be: the thread cannot open it and stops.
    mkdirSync(dirname(dirname(databasePath)), { recursive: true })
    writeFileSync(dirname(databasePath), '')
    const onStopped = vi.fn()
    thread = createStoringThread({ workerUrl, workerData: { databasePath, mailsOwner: false }, onStopped })
    await expect(thread.write([submission('Ann')])).rejects.toThrow(/the storing thread stopped/)
    expect(onStopped).toHaveBeenCalledOnce()
    rmSync(dirname(databasePath))
    migrated(databasePath)
    const results = await thread.write([submission('Bob')])
    expect(results.map((result) => result.ok && result.row.name)).toEqual(['Bob'])
    expect(rowsIn(databasePath).map((row) => row.name)).toEqual(['Bob'])
  })

  it('refuses batches once closed', async () => {
    thread = createStoringThread({ workerUrl, workerData: { databasePath: migrated(), mailsOwner: false } })
    await thread.close()
    await expect(thread.write([submission('Ann')])).rejects.toThrow('the storing thread is closed')
  })
})
