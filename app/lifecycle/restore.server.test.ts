import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import Sqlite from 'better-sqlite3'
import { expect, it } from 'vitest'
import { openDatabase } from '#app/data/database.server'
import { tempDatabasePath } from '#tests/support/server'
import { writeBackup } from './backup-files.server'
import { restoreBackup } from './restore.server'

const migrationsFolder = join(import.meta.dirname, '../../drizzle')
const count = (path: string) => {
  const db = new Sqlite(path, { readonly: true })
  try {
    return db.prepare('SELECT count(*) FROM submissions').pluck().get() as number
  } finally {
    db.close()
  }
}

function databaseWith(rows: number, path = tempDatabasePath()) {
  const database = openDatabase(path, migrationsFolder)
  const insert = database.sqlite.prepare(
    "INSERT INTO submissions (name, email, message, created_at) VALUES ('Ann', 'ann@example.com', 'Honey?', 1)",
  )
  for (let n = 0; n < rows; n++) insert.run()
  return database
}

it('two restores in the same second keep both databases they replaced, under names of their own', () => {
  const database = databaseWith(5)
  const path = database.sqlite.name
  const backup = writeBackup({ databasePath: path, dir: join(dirname(path), 'backups'), at: new Date() })
  database.close()
  const at = () => Date.parse('2026-11-24T02:00:00Z')
  const first = restoreBackup({ file: backup.file, databasePath: path, migrationsFolder, now: at })
  const second = restoreBackup({ file: backup.file, databasePath: path, migrationsFolder, now: at })
  expect(first.setAside).toBe(`${path}.before-restore-20261124-020000`)
  expect(second.setAside).toBe(`${path}.before-restore-20261124-020000-2`)
  expect([count(first.setAside!), count(second.setAside!), count(path)]).toEqual([5, 5, 5])
})

it('installs what a backup still held in its write-ahead log, as its own check counted it', () => {
  // A copy of a live database taken with its -wal beside it: the rows are in the log only.
  const live = databaseWith(7)
  const copy = join(dirname(live.sqlite.name), 'copied.db')
  live.sqlite.pragma('wal_autocheckpoint = 0')
  copyFileSync(live.sqlite.name, copy)
  copyFileSync(`${live.sqlite.name}-wal`, `${copy}-wal`)
  live.close()
  const target = tempDatabasePath()
  const { submissions } = restoreBackup({ file: copy, databasePath: target, migrationsFolder })
  expect(submissions).toBe(7)
  expect(count(target)).toBe(7)
})

it('refuses the database itself, something that is not a file, a restore already under way, and a running site', () => {
  const database = databaseWith(2)
  const path = database.sqlite.name
  const backup = writeBackup({ databasePath: path, dir: join(dirname(path), 'backups'), at: new Date() })
  expect(() => restoreBackup({ file: backup.file, databasePath: path, migrationsFolder })).toThrow(
    `The site is running on ${path}: stop it first, then restore. The current database is untouched.`,
  )
  database.close()
  expect(() => restoreBackup({ file: path, databasePath: path, migrationsFolder })).toThrow(
    'is the database itself: name a backup',
  )
  expect(() => restoreBackup({ file: dirname(path), databasePath: path, migrationsFolder })).toThrow('is not a file')
  copyFileSync(backup.file, `${path}.restoring`)
  expect(() => restoreBackup({ file: backup.file, databasePath: path, migrationsFolder })).toThrow(
    `Another restore is under way (or one stopped half-way: remove ${path}.restoring and try again)`,
  )
  expect(readdirSync(dirname(path)).some((name) => name.includes('before-restore'))).toBe(false)
  expect(existsSync(`${path}.restoring`)).toBe(true)
  expect(count(path)).toBe(2)
})

it('replaces a database too damaged to open, keeping it aside as it was', () => {
  const database = databaseWith(3)
  const path = database.sqlite.name
  const backup = writeBackup({ databasePath: path, dir: join(dirname(path), 'backups'), at: new Date() })
  database.close()
  const bytes = readFileSync(path)
  bytes.fill(0x5a, 0, 100)
  writeFileSync(path, bytes)
  const { setAside } = restoreBackup({ file: backup.file, databasePath: path, migrationsFolder })
  expect(count(path)).toBe(3)
  expect(readFileSync(setAside!).subarray(0, 100)).toEqual(Buffer.alloc(100, 0x5a))
})
