import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Sqlite from 'better-sqlite3'

/** Reads the rows straight from the SQLite file, bypassing the app. */
export function storedRows(databasePath: string): Array<Record<string, unknown>> {
  return readRows(databasePath, 'SELECT * FROM submissions ORDER BY id')
}

/** What a query reads straight from the SQLite file, bypassing the app (the file opened read-only). */
export function readRows<T = Record<string, unknown>>(databasePath: string, query: string, ...values: unknown[]): T[] {
  const sqlite = new Sqlite(databasePath, { readonly: true, fileMustExist: true })
  try {
    return sqlite.prepare(query).all(...values) as T[]
  } finally {
    sqlite.close()
  }
}

/**
 * The migrations folder as the release that ended with migration `lastTag` shipped it: the same
 * files, its journal cut there, so a test can make the database that release made.
 */
export function migrationsUpTo(lastTag: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'farm-migrations-'))
  cpSync(migrationsFolder, folder, { recursive: true })
  const journalPath = join(folder, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> }
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag)
  if (last < 0) throw new Error(`No migration ${lastTag}`)
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }))
  return folder
}

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url))
