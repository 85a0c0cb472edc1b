// Puts a backup in the database's place, with the site stopped:
//
//   npm run restore -- data/backups/farm-20261124-020000.db [--yes]
//
// The backup is checked first, and anything in its schema the migrations did not make (a
// trigger, a view) dropped and named. What it brings that differs from the running site (phones
// pushed to, signing keys, the owner's password, open sign-ins, the team) is listed, and asked
// about before anything is replaced (`--yes` installs without asking). The current database is
// moved aside as farm.db.before-restore-<UTC time> (never deleted) and the backup installed and
// migrated. At its next start the site forgets again everyone forgotten since the backup was taken.
import { createInterface } from 'node:readline/promises'
import { restoreBackup, RestoreNotApproved } from '#app/lifecycle/restore.server'
import { readConfig } from '#server/config'

const args = process.argv.slice(2)
const yes = args.includes('--yes')
const file = args.find((arg) => arg !== '--yes')
if (!file) {
  console.error(
    'restore: name the backup to restore, e.g. npm run restore -- data/backups/farm-20261124-020000.db [--yes]',
  )
  process.exit(1)
}
process.umask(0o077)
const config = readConfig()

async function ask(brings: string[]): Promise<boolean> {
  console.log(`${file} brings what differs from this site:\n${brings.map((line) => `  - ${line}`).join('\n')}`)
  if (!process.stdin.isTTY) {
    console.error('restore: nothing was replaced. Run it again with --yes to install it anyway.')
    return false
  }
  const terminal = createInterface({ input: process.stdin, output: process.stdout })
  try {
    return /^y(es)?$/i.test((await terminal.question('Install it? [y/N] ')).trim())
  } finally {
    terminal.close()
  }
}

try {
  const restore = (approve: (brings: string[]) => boolean) =>
    restoreBackup({ file, databasePath: config.databasePath, migrationsFolder: config.migrationsFolder, approve })
  let approved: string | null = null
  let done
  for (;;) {
    try {
      // Approved is what was shown: a file (or a sign-in's expiry) changed meanwhile is asked about again.
      done = restore((brings) => yes || JSON.stringify(brings) === approved)
      break
    } catch (error) {
      if (!(error instanceof RestoreNotApproved) || !(await ask(error.brings))) throw error
      approved = JSON.stringify(error.brings)
    }
  }
  const { submissions, setAside, dropped, brings } = done
  if (yes && brings.length > 0)
    console.log(`Installed with what differs from the site before:\n  - ${brings.join('\n  - ')}`)
  if (dropped.length > 0)
    console.log(`Dropped from it what this site's migrations did not make: ${dropped.join(', ')}.`)
  console.log(
    `Restored ${file} to ${config.databasePath}: ${submissions} submissions.` +
      (setAside ? ` The database it replaced is kept as ${setAside}.` : ''),
  )
} catch (error) {
  console.error(`restore: ${(error as Error).message}`)
  process.exit(1)
}
