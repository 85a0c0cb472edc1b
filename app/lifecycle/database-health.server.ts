import { existsSync, statSync } from 'node:fs'
import Sqlite from 'better-sqlite3'
import { checkDatabaseFile, integrityProblem, listBackups } from './backup-files.server'

/**
 * Checks the database before the site opens it: a damaged file stops the start with what
 * is wrong and the newest backup that passes its own check, ready to restore.
 */
export function refuseDamagedDatabase(databasePath: string, backupDir: string) {
  if (!existsSync(databasePath) || statSync(databasePath).size === 0) return
  let problem: string | null
  try {
    const db = new Sqlite(databasePath, { readonly: true, fileMustExist: true })
    try {
      problem = integrityProblem(db)
    } finally {
      db.close()
    }
  } catch (error) {
    problem = `it cannot be read as a database (${(error as Error).message})`
  }
  if (problem === null) return
  const good = listBackups(backupDir).find((backup) => checkDatabaseFile(backup.file, { quick: true }).ok)
  throw new Error(
    `The database ${databasePath} is damaged: ${problem}. ` +
      (good
        ? `The newest good backup is ${good.file}: stop the site and restore it with \`npm run restore -- ${good.file}\` (the damaged file is kept aside).`
        : `No good backup was found in ${backupDir}: restore one you copied off this machine with \`npm run restore -- FILE\`.`),
  )
}
