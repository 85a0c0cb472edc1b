import Sqlite from 'better-sqlite3'

/** Reads the rows straight from the SQLite file, bypassing the app. */
export function storedRows(databasePath: string): Array<Record<string, unknown>> {
  const sqlite = new Sqlite(databasePath, { readonly: true, fileMustExist: true })
  try {
    return sqlite.prepare('SELECT * FROM submissions ORDER BY id').all() as Array<Record<string, unknown>>
  } finally {
    sqlite.close()
  }
}
