// Takes a backup now, while the site keeps running, into BACKUP_DIR (by default the backups
// folder beside the database), as the site's own schedule does:
//
//   npm run backup
//
// The copy is one consistent snapshot (VACUUM INTO), flushed to disk and checked before it
// is named farm-YYYYMMDD-HHMMSS.db; the newest BACKUP_KEEP are kept.
import { existsSync } from 'node:fs'
import { backUpOnce } from '#app/lifecycle/backup-files.server'
import { readConfig } from '#server/config'

// The copy holds customers' names and emails, like the live file: only its owner may read it.
process.umask(0o077)
const config = readConfig()
if (!existsSync(config.databasePath)) {
  console.error(`backup: there is no database at ${config.databasePath} (set DATABASE_PATH)`)
  process.exit(1)
}
try {
  const { file, submissions, bytes, removed } = backUpOnce({
    databasePath: config.databasePath,
    dir: config.backups.dir,
    keep: config.backups.keep,
    at: new Date(),
  })
  console.log(
    `Backed up ${config.databasePath} to ${file}: ${submissions} submissions, ${bytes} bytes, integrity ok.` +
      (removed.length > 0 ? ` Removed the older ${removed.join(', ')}.` : ''),
  )
} catch (error) {
  console.error(`backup: the backup failed: ${(error as Error).message}`)
  process.exit(1)
}
