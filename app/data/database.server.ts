import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import Sqlite from 'better-sqlite3'
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import * as schema from './schema'
import { createWrites, type Writes } from './writes.server'

export type FarmDatabase = BetterSQLite3Database<typeof schema>

export interface OpenDatabase {
  db: FarmDatabase
  sqlite: Sqlite.Database
  writes: Writes
  close(): void
}

/**
 * The file holds customers' names and emails: only its owner may read it. SQLite creates the
 * -wal and -shm files with the database file's own permissions; older ones are narrowed too.
 */
function keepPrivate(path: string) {
  closeSync(openSync(path, 'a', 0o600))
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600)
}

/**
 * A file written before secure deletion was on still holds old bytes in its free space (spam
 * purged long ago, rows moved by updates): it is rewritten once, and marked in user_version.
 */
function cleanFreeSpaceOnce(sqlite: Sqlite.Database) {
  if (Number(sqlite.pragma('user_version', { simple: true })) >= cleanedVersion) return
  sqlite.exec('VACUUM')
  sqlite.pragma(`user_version = ${cleanedVersion}`)
  sqlite.pragma('wal_checkpoint(TRUNCATE)')
}
const cleanedVersion = 1

export function openDatabase(path: string, migrationsFolder: string): OpenDatabase {
  mkdirSync(dirname(path), { recursive: true })
  keepPrivate(path)
  const sqlite = new Sqlite(path)
  sqlite.pragma('journal_mode = WAL')
  // FULL: an answered submission must survive a power cut, not just a crash.
  sqlite.pragma('synchronous = FULL')
  // Before serving, a lock another process holds (a backup) may be waited out.
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('foreign_keys = ON')
  // What is deleted is overwritten, so a forgotten person cannot be read back from the file's
  // free space (docs/decisions/022-data-safe-for-years.md).
  sqlite.pragma('secure_delete = ON')
  const db = drizzle({ client: sqlite, schema })
  migrate(db, { migrationsFolder })
  cleanFreeSpaceOnce(sqlite)
  // Serving, SQLite's busy wait would sleep on the event loop and stop every request: a write
  // meets a held lock at once and waits for it asynchronously (writes.whenFree).
  sqlite.pragma('busy_timeout = 0')
  return {
    db,
    sqlite,
    writes: createWrites(),
    close() {
      sqlite.pragma('busy_timeout = 5000')
      sqlite.pragma('wal_checkpoint(TRUNCATE)')
      sqlite.close()
    },
  }
}
