import { closeSync, existsSync, openSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs'
import Sqlite from 'better-sqlite3'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { openDatabase } from '#app/data/database.server'
import { backupName, checkDatabaseFile, copyDatabase } from './backup-files.server'

/**
 * Whether another process (the site) has the database open: it then holds a lock an exclusive
 * transaction needs. A file too damaged to lock is not in use: it is the one being replaced.
 */
function inUse(databasePath: string): boolean {
  let db: Sqlite.Database | undefined
  try {
    db = new Sqlite(databasePath, { fileMustExist: true, timeout: 0 })
    db.pragma('locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
    db.exec('COMMIT')
    return false
  } catch (error) {
    return (error as { code?: string }).code?.startsWith('SQLITE_BUSY') ?? false
  } finally {
    db?.close()
  }
}

/** A name beside the database no file has yet. */
function freeName(base: string) {
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`
    if (!['', '-wal', '-shm'].some((suffix) => existsSync(`${name}${suffix}`))) return name
  }
}

/**
 * Puts a backup in the database's place: the file is checked first (SQLite's integrity check,
 * this site's tables, migrations this version knows), the current database is moved aside
 * (never deleted), a consistent copy of the backup installed and brought up to date by the
 * migrations. The site must be stopped. A file that fails a check leaves everything as it was.
 */
export function restoreBackup({
  file,
  databasePath,
  migrationsFolder,
  now = Date.now,
}: {
  file: string
  databasePath: string
  migrationsFolder: string
  now?: () => number
}): { submissions: number; setAside: string | null } {
  const untouched = 'The current database is untouched.'
  if (!existsSync(file)) throw new Error(`There is no file ${file}.`)
  if (!statSync(file).isFile()) throw new Error(`${file} is not a file. ${untouched}`)
  if (existsSync(databasePath) && realpathSync(file) === realpathSync(databasePath)) {
    throw new Error(`${file} is the database itself: name a backup. ${untouched}`)
  }
  const checked = checkDatabaseFile(file)
  if (!checked.ok) throw new Error(`${file} cannot be restored: ${checked.problem}. ${untouched}`)
  const known = new Set(readMigrationFiles({ migrationsFolder }).map((migration) => migration.hash))
  if (checked.migrations.some((hash) => !known.has(hash))) {
    throw new Error(
      `${file} cannot be restored: it was made by a newer version of the site (or another one). ${untouched}`,
    )
  }
  if (existsSync(databasePath) && inUse(databasePath)) {
    throw new Error(`The site is running on ${databasePath}: stop it first, then restore. ${untouched}`)
  }
  // Made empty and exclusively: a second restore at the same moment is refused here.
  const incoming = `${databasePath}.restoring`
  try {
    closeSync(openSync(incoming, 'wx', 0o600))
  } catch {
    throw new Error(
      `Another restore is under way (or one stopped half-way: remove ${incoming} and try again). ${untouched}`,
    )
  }
  let setAside: string | null = null
  try {
    // One consistent copy, with whatever of the backup was still in its write-ahead log.
    copyDatabase(file, incoming)
    if (existsSync(databasePath)) {
      setAside = freeName(`${databasePath}.before-restore-${backupName(new Date(now())).slice(5, -3)}`)
      // The write-ahead log and its index go with the file they belong to.
      for (const suffix of ['-wal', '-shm', '']) {
        if (existsSync(`${databasePath}${suffix}`)) renameSync(`${databasePath}${suffix}`, `${setAside}${suffix}`)
      }
    }
    renameSync(incoming, databasePath)
  } finally {
    rmSync(incoming, { force: true })
  }
  openDatabase(databasePath, migrationsFolder).close()
  return { submissions: checked.submissions, setAside }
}
