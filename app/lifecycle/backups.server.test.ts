import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { tempDatabasePath } from '#tests/support/server'
import { backUpOnce, checkDatabaseFile, writeBackup, writeDownloadCopy } from './backup-files.server'
import { createBackups, type RunCopy } from './backups.server'

const minuteMs = 60_000
const dayMs = 24 * 60 * minuteMs
let database: OpenDatabase
let stop: (() => Promise<void>) | undefined
let logged: string
const log = () => pino(new Writable({ write: (chunk, _encoding, done) => ((logged += chunk), done()) }))

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-24T02:00:00Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  database = openDatabase(tempDatabasePath(), join(import.meta.dirname, '../../drizzle'))
  database.sqlite
    .prepare(
      "INSERT INTO submissions (name, email, message, created_at) VALUES ('Ann', 'ann@example.com', 'Honey?', 1)",
    )
    .run()
  logged = ''
})
afterEach(async () => {
  await stop?.()
  vi.useRealTimers()
  database.close()
})

/** The copy the copier process makes, here in the test's own process so the clock stays the test's. */
const inThisThread: RunCopy = async (job) => {
  try {
    return job.kind === 'backup'
      ? { ok: true, kind: 'backup', ...backUpOnce({ ...job, at: new Date(job.at) }) }
      : { ok: true, kind: 'download', ...writeDownloadCopy(job) }
  } catch (error) {
    return { ok: false, error: (error as Error).message, code: (error as { code?: string }).code ?? null }
  }
}

function backupsIn(dir: string, runCopy: RunCopy = inThisThread, keep = 3) {
  const backups = createBackups({
    databasePath: database.sqlite.name,
    dir,
    keep: () => keep,
    everyMs: () => dayMs,
    runCopy,
    log: log(),
  })
  stop = backups.stop
  return backups
}

const names = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.startsWith('farm-'))
        .sort()
    : []

it('takes one at start when there is none, then one a day; each checked, and the newest BACKUP_KEEP kept', async () => {
  const dir = join(dirname(database.sqlite.name), 'backups')
  backupsIn(dir).start()
  await vi.advanceTimersByTimeAsync(0)
  await vi.waitFor(() => expect(names(dir)).toEqual(['farm-20261124-020000.db']))
  const first = checkDatabaseFile(join(dir, 'farm-20261124-020000.db'))
  expect(first).toMatchObject({ ok: true, submissions: 1 })
  expect(logged).toContain('"submissions":1')
  expect(logged).toContain('backed up the database')

  for (let day = 1; day <= 4; day++) {
    await vi.advanceTimersByTimeAsync(dayMs)
    await vi.waitFor(() => expect(names(dir)).toContain(`farm-202611${24 + day}-020000.db`))
  }
  // Rotated: the three newest stay, the first two are gone; nothing half-written is left.
  expect(
    readdirSync(dir)
      .filter((name) => name !== 'erasures.jsonl')
      .sort(),
  ).toEqual(['farm-20261126-020000.db', 'farm-20261127-020000.db', 'farm-20261128-020000.db'])
  expect(logged).toContain('removed backups older than the newest kept')
})

it('at start, waits for the rest of the day when the newest backup is recent, and takes one at once when it is old', async () => {
  const dir = join(dirname(database.sqlite.name), 'backups')
  mkdirSync(dir)
  writeBackup({ databasePath: database.sqlite.name, dir, at: new Date('2026-11-23T20:00:00Z') })
  backupsIn(dir).start()
  // The newest is 6 hours old: the next is due 18 hours from now, not at start.
  await vi.advanceTimersByTimeAsync(18 * 60 * minuteMs - 1)
  expect(names(dir)).toEqual(['farm-20261123-200000.db'])
  await vi.advanceTimersByTimeAsync(1)
  await vi.waitFor(() => expect(names(dir)).toEqual(['farm-20261123-200000.db', 'farm-20261124-200000.db']))
  await stop?.()

  const old = join(dirname(database.sqlite.name), 'old-backups')
  mkdirSync(old)
  writeBackup({ databasePath: database.sqlite.name, dir: old, at: new Date('2026-11-20T02:00:00Z') })
  backupsIn(old).start()
  await vi.advanceTimersByTimeAsync(0)
  await vi.waitFor(() => expect(names(old)).toHaveLength(2))
})

it('logs a failed backup, never throws, and tries again within 15 minutes', async () => {
  const dir = join(dirname(database.sqlite.name), 'backups')
  let fail = true
  const flaky: RunCopy = (job) =>
    fail ? Promise.resolve({ ok: false, error: 'database or disk is full', code: 'SQLITE_FULL' }) : inThisThread(job)
  backupsIn(dir, flaky).start()
  await vi.advanceTimersByTimeAsync(0)
  await vi.waitFor(() => expect(logged).toContain('the backup failed; the site goes on, and it is tried again'))
  expect(logged).toContain('"code":"SQLITE_FULL"')
  expect(names(dir)).toEqual([])
  fail = false
  await vi.advanceTimersByTimeAsync(15 * minuteMs)
  await vi.waitFor(() => expect(names(dir)).toEqual(['farm-20261124-021500.db']))
})

it('takes one backup at a time: a second ask joins the one under way', async () => {
  const dir = join(dirname(database.sqlite.name), 'backups')
  let copies = 0
  const counted: RunCopy = async (job) => (copies++, inThisThread(job))
  const backups = backupsIn(dir, counted)
  const [first, second] = await Promise.all([backups.takeNow(), backups.takeNow()])
  expect(first).toBe(second)
  expect(copies).toBe(1)
})
