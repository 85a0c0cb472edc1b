// Puts a backup in the database's place, with the site stopped:
//
//   npm run restore -- data/backups/farm-20261124-020000.db [--yes]
//   npm run restore -- --from-bucket [farm-20261124-020000.db] [--yes]
//
// The backup is checked first, and anything in its schema the migrations did not make (a
// trigger, a view) dropped and named. What it brings that differs from the running site (phones
// pushed to, signing keys, the owner's password, open sign-ins, the team) is listed, and asked
// about before anything is replaced (`--yes` installs without asking). The current database is
// moved aside as farm.db.before-restore-<UTC time> (never deleted) and the backup installed and
// migrated. At its next start the site forgets again everyone forgotten since the backup was taken.
//
// --from-bucket fetches the newest (or the named) sealed copy from the bucket the BACKUP_BUCKET_*
// environment variables name, asks for the key the settings page showed once (or reads
// BACKUP_BUCKET_KEY, or the first line of standard input when it is not a terminal), opens it
// into BACKUP_DIR, and restores that file as above: a machine with nothing on it can start again.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { Writable } from 'node:stream'
import { fetchFromBucket } from '#app/lifecycle/from-bucket.server'
import { restoreBackup, RestoreNotApproved } from '#app/lifecycle/restore.server'
import { readKeyText } from '#app/lifecycle/sealed-copy.server'
import { readConfig } from '#server/config'

const args = process.argv.slice(2)
const yes = args.includes('--yes')
const fromBucket = args.includes('--from-bucket')
const named = args.find((arg) => arg !== '--yes' && arg !== '--from-bucket')
if (!named && !fromBucket) {
  console.error(
    'restore: name the backup to restore, e.g. npm run restore -- data/backups/farm-20261124-020000.db [--yes],\n' +
      'or fetch the newest from the bucket: npm run restore -- --from-bucket [--yes]',
  )
  process.exit(1)
}
process.umask(0o077)

async function question(words: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout })
  try {
    return await terminal.question(words)
  } finally {
    terminal.close()
  }
}

/** Asks with the answer not shown as it is typed: a key on the screen is a key in the scrollback. */
async function askQuietly(words: string): Promise<string> {
  process.stdout.write(words)
  const unseen = new Writable({ write: (_chunk, _encoding, done) => done() })
  const terminal = createInterface({ input: process.stdin, output: unseen, terminal: true })
  try {
    return await terminal.question('')
  } finally {
    terminal.close()
    process.stdout.write('\n')
  }
}

/** The key the bucket's copies are sealed with: the environment's, else asked, else standard input's first line. */
async function bucketKey(fromEnvironment: Buffer | null): Promise<Buffer> {
  if (fromEnvironment) return fromEnvironment
  if (process.stdin.isTTY)
    return readKeyText(
      await askQuietly('The bucket’s key (shown once when the bucket was set up; not shown as you type): '),
    )
  let text = ''
  for await (const chunk of process.stdin) text += String(chunk)
  return readKeyText(text.split('\n')[0] ?? '')
}

async function backupFile(config: ReturnType<typeof readConfig>): Promise<string> {
  if (!fromBucket) return named!
  const { bucket, sealKey, dir } = config.backups
  if (!bucket) {
    throw new Error(
      'to fetch from the bucket, set BACKUP_BUCKET_ENDPOINT, BACKUP_BUCKET, BACKUP_BUCKET_ACCESS_KEY and BACKUP_BUCKET_SECRET (and BACKUP_BUCKET_REGION when the address names none).',
    )
  }
  const key = await bucketKey(sealKey)
  const fetched = await fetchFromBucket({ settings: bucket, key, dir, name: named })
  console.log(
    `The bucket holds ${fetched.inBucket.length} backup${fetched.inBucket.length === 1 ? '' : 's'}, the newest ${fetched.inBucket[0]}. Fetched and opened ${fetched.name} into ${fetched.file}.`,
  )
  return fetched.file
}

async function ask(file: string, brings: string[]): Promise<boolean> {
  console.log(`${file} brings what differs from this site:\n${brings.map((line) => `  - ${line}`).join('\n')}`)
  if (!process.stdin.isTTY) {
    console.error('restore: nothing was replaced. Run it again with --yes to install it anyway.')
    return false
  }
  return /^y(es)?$/i.test((await question('Install it? [y/N] ')).trim())
}

try {
  const config = readConfig()
  const file = await backupFile(config)
  // A machine with nothing on it yet: the database's folder is made.
  mkdirSync(dirname(config.databasePath), { recursive: true })
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
      if (!(error instanceof RestoreNotApproved) || !(await ask(file, error.brings))) throw error
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
