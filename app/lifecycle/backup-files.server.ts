import { randomUUID } from 'node:crypto'
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import Sqlite from 'better-sqlite3'

const backupPattern = /^farm-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})\.db$/

/** A backup's name says when it was taken, in UTC: farm-YYYYMMDD-HHMMSS.db. */
export function backupName(at: Date): string {
  const iso = at.toISOString()
  return `farm-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}.db`
}

export interface BackupFile {
  name: string
  file: string
  takenAt: number
}

/** The backups in a folder, newest first; other files there are left alone. */
export function listBackups(dir: string): BackupFile[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return names
    .flatMap((name) => {
      const parts = backupPattern.exec(name)?.slice(1).map(Number)
      if (!parts) return []
      const [year, month, day, hour, minute, second] = parts as [number, number, number, number, number, number]
      return [{ name, file: join(dir, name), takenAt: Date.UTC(year, month - 1, day, hour, minute, second) }]
    })
    .sort((a, b) => b.takenAt - a.takenAt)
}

export type FileCheck = { ok: true; submissions: number; migrations: string[] } | { ok: false; problem: string }

/**
 * Whether a file is a sound database of this site: SQLite's integrity check (or the quicker
 * one, which skips comparing indexes with their tables), a submissions table, and the
 * migrations it was made with. Nothing is written to the file.
 */
export function checkDatabaseFile(path: string, { quick = false }: { quick?: boolean } = {}): FileCheck {
  let db: Sqlite.Database | undefined
  try {
    db = new Sqlite(path, { readonly: true, fileMustExist: true })
    // A file from elsewhere may carry a view or trigger: nothing in its schema may call a function meanwhile.
    db.pragma('trusted_schema = OFF')
    const problem = integrityProblem(db, quick)
    if (problem) return { ok: false, problem }
    const tables = new Set(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[])
    if (!tables.has('submissions') || !tables.has('__drizzle_migrations')) {
      return { ok: false, problem: 'it is a SQLite file, but not a database of this site' }
    }
    return {
      ok: true,
      submissions: db.prepare('SELECT count(*) FROM submissions').pluck().get() as number,
      migrations: db.prepare('SELECT hash FROM __drizzle_migrations ORDER BY created_at').pluck().all() as string[],
    }
  } catch (error) {
    return { ok: false, problem: `it cannot be read as a database (${(error as Error).message})` }
  } finally {
    db?.close()
  }
}

/** Why SQLite's own check finds the file damaged, or null when it is sound. */
export function integrityProblem(db: Sqlite.Database, quick = false): string | null {
  const found = String(db.pragma(quick ? 'quick_check' : 'integrity_check', { simple: true }))
  if (found === 'ok') return null
  // SQLite lists every broken cell; the first few say enough.
  const said = found.replace(/\s+/g, ' ').replace('*** in database main *** ', '')
  return `it fails SQLite's integrity check (${said.length > 200 ? `${said.slice(0, 200)}…` : said})`
}

/** Writes what is in the file to the disk itself (a folder: its list of names). */
function flushToDisk(path: string) {
  const descriptor = openSync(path, 'r')
  try {
    fsyncSync(descriptor)
  } finally {
    closeSync(descriptor)
  }
}

/**
 * One consistent copy of the live database, in one file: VACUUM INTO reads a single snapshot
 * (writers go on meanwhile) and writes it compacted, with no free pages and so nothing deleted.
 */
export function copyDatabase(databasePath: string, target: string) {
  const live = new Sqlite(databasePath, { readonly: true, fileMustExist: true })
  try {
    // The file may be a backup from elsewhere: nothing in its schema may call a function meanwhile.
    live.pragma('trusted_schema = OFF')
    live.prepare('VACUUM INTO ?').run(target)
  } finally {
    live.close()
  }
  const copy = new Sqlite(target, { fileMustExist: true })
  try {
    copy.pragma('journal_mode = DELETE')
  } finally {
    copy.close()
  }
}

/** A backup being written: never mistaken for one, and removed if the writing fails. */
const partialSuffix = '.partial'

/**
 * Takes a backup into `dir`: copied to a temporary file, flushed to disk, checked (integrity and
 * its submissions counted), then renamed into place as farm-YYYYMMDD-HHMMSS.db. A copy that
 * fails any step (a full disk, say) is removed and the error thrown.
 */
export function writeBackup({ databasePath, dir, at }: { databasePath: string; dir: string; at: Date }) {
  mkdirSync(dir, { recursive: true })
  const name = backupName(at)
  const partial = join(dir, `${name}.${randomUUID()}${partialSuffix}`)
  try {
    copyDatabase(databasePath, partial)
    flushToDisk(partial)
    const checked = checkDatabaseFile(partial)
    if (!checked.ok) throw new Error(`the copy is not sound: ${checked.problem}`)
    const file = join(dir, name)
    renameSync(partial, file)
    flushToDisk(dir)
    return { file, submissions: checked.submissions, bytes: statSync(file).size }
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
}

/** Takes a backup and keeps the newest `keep`: what `npm run backup` and the site's schedule both do. */
export function backUpOnce({
  databasePath,
  dir,
  keep,
  at,
}: {
  databasePath: string
  dir: string
  keep: number
  at: Date
}) {
  const backup = writeBackup({ databasePath, dir, at })
  return { ...backup, removed: rotateBackups(dir, keep) }
}

/** A fresh consistent copy for the owner to download, in `dir`; whoever streams it removes it. */
export function writeDownloadCopy({ databasePath, dir }: { databasePath: string; dir: string }) {
  mkdirSync(dir, { recursive: true })
  const partial = join(dir, `download-${randomUUID()}${partialSuffix}`)
  try {
    copyDatabase(databasePath, partial)
    return { file: partial, bytes: statSync(partial).size }
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
}

/** Copies a crash left half-written. */
export function removePartials(dir: string) {
  let names: string[] = []
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) if (name.endsWith(partialSuffix)) rmSync(join(dir, name), { force: true })
}

/** Keeps the newest `keep` backups and removes the rest; returns what it removed. */
export function rotateBackups(dir: string, keep: number): string[] {
  const old = listBackups(dir).slice(keep)
  for (const backup of old) rmSync(backup.file, { force: true })
  return old.map((backup) => backup.name)
}
