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
