// Puts a backup in the database's place, with the site stopped:
//
//   npm run restore -- data/backups/farm-20261124-020000.db
//
// The backup is checked first; the current database is moved aside as
// farm.db.before-restore-<UTC time> (never deleted) and the backup installed and migrated.
// At its next start the site forgets again everyone forgotten since the backup was taken.
import { restoreBackup } from '#app/lifecycle/restore.server'
import { readConfig } from '#server/config'

const file = process.argv[2]
if (!file) {
  console.error('restore: name the backup to restore, e.g. npm run restore -- data/backups/farm-20261124-020000.db')
  process.exit(1)
}
process.umask(0o077)
const config = readConfig()
try {
  const { submissions, setAside } = restoreBackup({
    file,
    databasePath: config.databasePath,
    migrationsFolder: config.migrationsFolder,
  })
  console.log(
    `Restored ${file} to ${config.databasePath}: ${submissions} submissions.` +
      (setAside ? ` The database it replaced is kept as ${setAside}.` : ''),
  )
} catch (error) {
  console.error(`restore: ${(error as Error).message}`)
  process.exit(1)
}
