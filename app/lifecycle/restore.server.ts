import { closeSync, existsSync, openSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import Sqlite from 'better-sqlite3'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { openDatabase } from '#app/data/database.server'
import { activity } from '#app/data/schema'
import { whatABackupBrings } from './backup-differences.server'
import { backupName, checkDatabaseFile, copyDatabase } from './backup-files.server'
import { keepOnlyTheMigrationsSchema } from './backup-schema.server'
import { textOf } from '#app/outside'

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
    return textOf(error, 'code')?.startsWith('SQLITE_BUSY') ?? false
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

/** A restore not installed because whoever ran it did not approve what the file brings. */
export class RestoreNotApproved extends Error {
  constructor(readonly brings: string[]) {
    super('Not restored: what the file brings was not approved. The current database is untouched.')
  }
}

/**
 * Puts a backup in the database's place: the file is checked first (SQLite's integrity check,
 * this site's tables, migrations this version knows), a consistent copy made, and its schema
 * made the migrations' own (what they did not make is dropped and named; what they made but the
 * file changed is refused), and it is brought up to date by the migrations. What it brings that
 * differs from the running site's database (phones, keys, the password, sign-ins, the team) is put
 * to `approve`; only then is the current database moved aside (never deleted) and the copy
 * installed. The site must be stopped. A file that fails a check, or is not approved, leaves
 * everything as it was.
 */
export function restoreBackup({
  file,
  databasePath,
  migrationsFolder,
  approve = () => true,
  now = Date.now,
}: {
  file: string
  databasePath: string
  migrationsFolder: string
  /** Shown what the file brings that differs from the running site; installs only on true. */
  approve?: (brings: string[]) => boolean
  now?: () => number
}): { submissions: number; setAside: string | null; dropped: string[]; brings: string[] } {
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
  let dropped: string[]
  let brings: string[]
  try {
    // One consistent copy, with whatever of the backup was still in its write-ahead log.
    copyDatabase(file, incoming)
    try {
      dropped = keepOnlyTheMigrationsSchema(incoming, migrationsFolder)
      // Brought up to date here, before anything is replaced: a migration that fails leaves all as it was.
      openDatabase(incoming, migrationsFolder).close()
    } catch (error) {
      throw new Error(`${file} cannot be restored: ${(error as Error).message}. ${untouched}`)
    }
    brings = whatABackupBrings(incoming, databasePath, now())
    if (brings.length > 0 && !approve(brings)) throw new RestoreNotApproved(brings)
    // The restored file says it was restored, and from what, in its own activity log.
    const restored = openDatabase(incoming, migrationsFolder)
    restored.db
      .insert(activity)
      .values({
        at: new Date(now()),
        kind: 'restore',
        memberId: null,
        detail: `Restored from ${basename(file)}`.slice(0, 300),
      })
      .run()
    restored.close()
    if (existsSync(databasePath)) {
      setAside = freeName(`${databasePath}.before-restore-${backupName(new Date(now())).slice(5, -3)}`)
      // The write-ahead log and its index go with the file they belong to.
      for (const suffix of ['-wal', '-shm', '']) {
        if (existsSync(`${databasePath}${suffix}`)) renameSync(`${databasePath}${suffix}`, `${setAside}${suffix}`)
      }
    }
    // Closed with its log emptied into it, the copy is one file again.
    renameSync(incoming, databasePath)
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${incoming}${suffix}`, { force: true })
  }
  return { submissions: checked.submissions, setAside, dropped, brings }
}
