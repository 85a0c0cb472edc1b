import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { openDatabase } from '#app/data/database.server'
import { backupName, checkDatabaseFile } from './backup-files.server'

/**
 * Puts a backup in the database's place: the file is checked first (SQLite's integrity check,
 * this site's tables, migrations this version knows), the current database is moved aside
 * (never deleted), the copy installed and brought up to date by the migrations. Run it with
 * the site stopped. A file that fails a check leaves everything as it was.
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
  if (!existsSync(file)) throw new Error(`There is no file ${file}.`)
  const checked = checkDatabaseFile(file)
  if (!checked.ok) throw new Error(`${file} cannot be restored: ${checked.problem}. The current database is untouched.`)
  const known = new Set(readMigrationFiles({ migrationsFolder }).map((migration) => migration.hash))
  if (checked.migrations.some((hash) => !known.has(hash))) {
    throw new Error(
      `${file} cannot be restored: it was made by a newer version of the site (or another one). The current database is untouched.`,
    )
  }
  const incoming = `${databasePath}.restoring`
  copyFileSync(file, incoming)
  let setAside: string | null = null
  if (existsSync(databasePath)) {
    setAside = `${databasePath}.before-restore-${backupName(new Date(now())).slice(5, -3)}`
    // The write-ahead log and its index go with the file they belong to.
    for (const suffix of ['-wal', '-shm', '']) {
      if (existsSync(`${databasePath}${suffix}`)) renameSync(`${databasePath}${suffix}`, `${setAside}${suffix}`)
    }
  }
  renameSync(incoming, databasePath)
  rmSync(`${incoming}-journal`, { force: true })
  openDatabase(databasePath, migrationsFolder).close()
  return { submissions: checked.submissions, setAside }
}
