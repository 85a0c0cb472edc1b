import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import Sqlite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { backupName, checkDatabaseFile } from '#app/lifecycle/backup-files.server'
import { storedRows } from '#tests/support/database'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { projectRoot, tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const run = promisify(execFile)
const site = serverPerTest('SIGKILL')

const npmRun = (script: string, args: string[], databasePath: string, env: Record<string, string> = {}) =>
  run('npm', ['run', '--silent', script, '--', ...args], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_PATH: databasePath, ...env },
  })

function post(server: RunningServer, name: string) {
  return fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, email: 'kept@example.com', message: `A message from ${name}.` }),
  })
}

const backupsIn = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((name) => /^farm-\d{8}-\d{6}\.db$/.test(name)) : []
const fileHash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

/** Another process writing submissions into the file as fast as it can, until stopped. */
function insertAsFastAsItCan(databasePath: string) {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require('better-sqlite3'))(process.argv[1]); db.pragma('busy_timeout = 5000');
       const insert = db.prepare("INSERT INTO submissions (name, email, message, created_at) VALUES ('Fast', 'fast@example.com', 'Eggs', ?)");
       for (;;) insert.run(Date.now());`,
      databasePath,
    ],
    { cwd: projectRoot, stdio: 'ignore' },
  )
  return { stop: () => child.kill('SIGKILL') }
}

const committed = (databasePath: string) => {
  const db = new Sqlite(databasePath, { readonly: true })
  try {
    return db.prepare('SELECT max(id) FROM submissions').pluck().get() as number
  } finally {
    db.close()
  }
}

describe('npm run backup', () => {
  it('copies the database while another process inserts as fast as it can: the copy is sound and holds every row committed before it started', async () => {
    const server = await site()
    expect((await post(server, 'Ada')).status).toBe(201)
    const inserter = insertAsFastAsItCan(server.databasePath)
    try {
      await expect.poll(() => committed(server.databasePath), { timeout: 10_000 }).toBeGreaterThan(2_000)
      const before = committed(server.databasePath)
      const { stdout } = await npmRun('backup', [], server.databasePath)
      expect(stdout).toMatch(/^Backed up .* to .*farm-\d{8}-\d{6}\.db: \d+ submissions, \d+ bytes, integrity ok\./)
      // The inserter kept going the whole time.
      expect(committed(server.databasePath)).toBeGreaterThan(before)
      const [name] = backupsIn(join(dirname(server.databasePath), 'backups'))
        .sort()
        .reverse()
      const copy = join(dirname(server.databasePath), 'backups', name!)
      const checked = checkDatabaseFile(copy)
      expect(checked).toMatchObject({ ok: true })
      const db = new Sqlite(copy, { readonly: true })
      expect(db.prepare('SELECT count(*) FROM submissions WHERE id <= ?').pluck().get(before)).toBe(before)
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete')
      db.close()
      expect(existsSync(`${copy}-wal`)).toBe(false)
    } finally {
      inserter.stop()
    }
  })

  it('fails with a clear message when there is no database, writing nothing', async () => {
    const missing = join(dirname(tempDatabasePath()), 'missing.db')
    await expect(npmRun('backup', [], missing)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('there is no database'),
    })
    expect(existsSync(join(dirname(missing), 'backups'))).toBe(false)
  })
})

describe('the automatic backup', () => {
  it('is taken at start when there is none, into BACKUP_DIR, checked and named by its time', async () => {
    const dir = join(dirname(tempDatabasePath()), 'elsewhere')
    const server = await site({ env: { BACKUP_DIR: dir } })
    // The line is logged after the file is in place, so it is waited for first.
    await expect
      .poll(() => server.output(), { timeout: 10_000 })
      .toMatch(/"submissions":0,"bytes":\d+,"ms":\d+,"msg":"backed up the database"/)
    expect(backupsIn(dir)).toHaveLength(1)
    // A restart within the day takes none.
    await server.stop()
    const again = await site({ databasePath: server.databasePath, env: { BACKUP_DIR: dir } })
    expect((await post(again, 'Bea')).status).toBe(201)
    // A start backup is due at once (a 0 ms timer, fired long before the post was answered), and a
    // graceful stop waits for a backup under way: stopped, the log holds one had it been taken.
    expect(await again.stop()).toBe(0)
    expect(again.output()).not.toContain('backed up the database')
    expect(backupsIn(dir)).toHaveLength(1)

    // The control: the same restart with the newest backup a day old takes one at start.
    const [newest] = backupsIn(dir)
    renameSync(join(dir, newest!), join(dir, backupName(new Date(Date.now() - 25 * 60 * 60 * 1000))))
    const third = await site({ databasePath: server.databasePath, env: { BACKUP_DIR: dir } })
    await expect.poll(() => third.output(), { timeout: 10_000 }).toContain('backed up the database')
    expect(backupsIn(dir)).toHaveLength(2)
  })

  it('on a full disk: logged, the partial file removed, the site still taking submissions', async () => {
    const databasePath = tempDatabasePath()
    const dir = join(dirname(databasePath), 'backups')
    mkdirSync(dir)
    // BACKUP_DIR is a 128 KB file system of its own, smaller than any copy of the database.
    const server = await site({
      databasePath,
      through: ['unshare', '-rm', 'sh', '-c', `mount -t tmpfs -o size=128k tmpfs '${dir}' && exec "$@"`, 'sh'],
    })
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('the backup failed')
    expect(server.output()).toMatch(
      /"code":"SQLITE_FULL".*"retryInMinutes":15,"msg":"the backup failed; the site goes on/,
    )
    // What the server sees in its own BACKUP_DIR: no backup and no partial copy left.
    expect(readdirSync(`/proc/${server.child.pid}/root${dir}`)).toEqual(['erasures.jsonl'])
    expect((await post(server, 'Cy')).status).toBe(201)
    expect(storedRows(databasePath).map((row) => row.name)).toEqual(['Cy'])
  })
})

describe('npm run restore', () => {
  it('the drill: a backup restored in place of a newer database, which is kept aside, and the site started on it shows its submissions', async () => {
    const first = await site()
    for (const name of ['Ada', 'Bea']) expect((await post(first, name)).status).toBe(201)
    await npmRun('backup', [], first.databasePath)
    expect((await post(first, 'Cy')).status).toBe(201)
    await first.stop()
    const [backup] = backupsIn(join(dirname(first.databasePath), 'backups'))
      .sort()
      .reverse()
    const file = join(dirname(first.databasePath), 'backups', backup!)

    const { stdout } = await npmRun('restore', [file], first.databasePath)
    expect(stdout).toMatch(
      /^Restored .* 2 submissions\. The database it replaced is kept as .*farm\.db\.before-restore-\d{8}-\d{6}\./,
    )
    const aside = readdirSync(dirname(first.databasePath)).find((name) => name.startsWith('farm.db.before-restore-'))
    expect(storedRows(join(dirname(first.databasePath), aside!)).map((row) => row.name)).toEqual(['Ada', 'Bea', 'Cy'])

    const restored = await site({ databasePath: first.databasePath })
    const listed = (await (await fetch(`${restored.url}/api/submissions`)).json()) as Array<{ name: string }>
    expect(listed.map((row) => row.name)).toEqual(['Bea', 'Ada'])
  })

  it('refuses a corrupt or foreign file with a clear error, leaving the current database untouched', async () => {
    const server = await site()
    expect((await post(server, 'Ada')).status).toBe(201)
    await server.stop()
    const folder = dirname(server.databasePath)
    const untouched = fileHash(server.databasePath)
    const foreign = join(folder, 'foreign.db')
    new Sqlite(foreign).exec('CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES (1)').close()
    const garbage = join(folder, 'garbage.db')
    writeFileSync(garbage, 'this is not a database at all'.repeat(200))
    for (const [file, said] of [
      [foreign, 'not a database of this site'],
      [garbage, 'cannot be read as a database'],
      [join(folder, 'absent.db'), 'There is no file'],
    ] as const) {
      await expect(npmRun('restore', [file], server.databasePath)).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining(said),
      })
    }
    expect(fileHash(server.databasePath)).toBe(untouched)
    expect(readdirSync(folder).some((name) => name.includes('before-restore'))).toBe(false)
  })
})

describe('a damaged database at start', () => {
  it('stops the server with what is wrong and the newest good backup to restore', async () => {
    const server = await site()
    for (let n = 0; n < 300; n++) await post(server, `Lead ${n} ${'with a longer name '.repeat(3)}`)
    await npmRun('backup', [], server.databasePath)
    await server.stop()
    const [backup] = backupsIn(join(dirname(server.databasePath), 'backups'))
      .sort()
      .reverse()
    // A page in the middle of the submissions table overwritten, as a failing disk leaves it.
    const db = new Sqlite(server.databasePath, { readonly: true })
    const page = db.prepare("SELECT max(pageno) FROM dbstat WHERE name = 'submissions'").pluck().get() as number
    const pageSize = db.pragma('page_size', { simple: true }) as number
    db.close()
    const bytes = readFileSync(server.databasePath)
    bytes.fill(0x5a, (page - 1) * pageSize + 100, page * pageSize - 100)
    writeFileSync(server.databasePath, bytes)

    const refused = await site({ databasePath: server.databasePath }).catch((error: Error) => error)
    expect(refused).toBeInstanceOf(Error)
    const said = (refused as Error).message
    expect(said).toContain(`The database ${server.databasePath} is damaged: it fails SQLite's integrity check`)
    expect(said).toContain(`The newest good backup is ${join(dirname(server.databasePath), 'backups', backup!)}`)
    expect(said).toContain('npm run restore --')

    // The command it names works on that very damage, and the site starts on the backup.
    const named = /`npm run restore -- (\S+)`/.exec(said)![1]!
    await npmRun('restore', [named], server.databasePath)
    await site({ databasePath: server.databasePath })
    expect(storedRows(server.databasePath)).toHaveLength(300)
    // 300 posts, a backup, a restore and three starts: more than a test's 30 s on a busy machine.
  }, 120_000)
})

describe('GET /api/backup', () => {
  it('streams a consistent copy to the signed-in owner while leads keep arriving, one download at a time', async () => {
    const server = await site({ env: { OWNER_PASSWORD: password } })
    const cookie = await signInAsOwner(server.url, password)
    let posting = true
    let posted = 0
    const arriving = (async () => {
      while (posting) if ((await post(server, `Lead ${posted}`)).status === 201) posted++
    })()
    await expect.poll(() => posted, { timeout: 20_000 }).toBeGreaterThan(20)
    const [first, second] = await Promise.all([
      fetch(`${server.url}/api/backup`, { headers: { Cookie: cookie } }),
      fetch(`${server.url}/api/backup`, { headers: { Cookie: cookie } }),
    ])
    const answers = [first, second].sort((a, b) => a.status - b.status)
    expect(answers.map((answer) => answer.status)).toEqual([200, 429])
    expect(await answers[1]!.json()).toEqual({
      error: 'A backup is already downloading. Wait for it to finish, then try again.',
    })
    const download = answers[0]!
    expect(download.headers.get('content-type')).toBe('application/vnd.sqlite3')
    expect(download.headers.get('cache-control')).toBe('no-store')
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="farm-\d{8}-\d{6}\.db"$/)
    const file = join(dirname(server.databasePath), 'downloaded.db')
    writeFileSync(file, Buffer.from(await download.arrayBuffer()))
    posting = false
    await arriving
    const checked = checkDatabaseFile(file)
    expect(checked).toMatchObject({ ok: true })
    expect(checked.ok && checked.submissions).toBeGreaterThan(20)
    // Nothing of the download is left on the disk, and the next one may start.
    expect(
      readdirSync(join(dirname(server.databasePath), 'backups')).filter((name) => name.includes('download')),
    ).toEqual([])
    expect((await fetch(`${server.url}/api/backup`, { headers: { Cookie: cookie } })).status).toBe(200)
  })
})
