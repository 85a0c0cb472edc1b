// Copies the site's SQLite database while the site keeps running:
//
//   npm run db:backup -- [destination]
//
// It reads DATABASE_PATH as the server does (default ./data/farm.db) and writes to the
// destination, by default ./backups/farm-<UTC time>.db. A plain file copy of a live WAL
// database can miss what is still in farm.db-wal or catch a page half-written; SQLite's
// online backup API copies one consistent state, starting over by itself if the server
// writes in the middle. The copy is then switched out of WAL mode, so it is one
// self-contained file, and checked with PRAGMA integrity_check.
import { existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Sqlite from 'better-sqlite3'
import { defaults } from '#server/config'

// The copy holds customers' names and emails, like the live file: only its owner may read it.
process.umask(0o077)
const source = process.env.DATABASE_PATH?.trim() || defaults.DATABASE_PATH
const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-')
const destination = process.argv[2] ?? `./backups/farm-${stamp}Z.db`

function fail(message: string): never {
  console.error(`db:backup: ${message}`)
  process.exit(1)
}

if (!existsSync(source)) fail(`there is no database at ${source} (set DATABASE_PATH)`)
if (existsSync(destination)) fail(`${destination} already exists; name a new file`)
mkdirSync(dirname(destination), { recursive: true })

const live = new Sqlite(source, { readonly: true, fileMustExist: true })
let pages: number
try {
  live.pragma('busy_timeout = 5000')
  pages = (await live.backup(destination)).totalPages
} catch (error) {
  fail(`the backup failed: ${(error as Error).message}`)
} finally {
  live.close()
}

const copy = new Sqlite(destination, { fileMustExist: true })
try {
  copy.pragma('journal_mode = DELETE')
  const check = copy.pragma('integrity_check', { simple: true })
  if (check !== 'ok') fail(`the copy in ${destination} fails PRAGMA integrity_check: ${String(check)}`)
  const rows = copy.prepare('SELECT count(*) FROM submissions').pluck().get()
  console.log(`Backed up ${source} to ${destination}: ${rows} submissions, ${pages} pages, integrity ok`)
} finally {
  copy.close()
}
