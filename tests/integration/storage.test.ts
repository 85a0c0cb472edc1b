import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '#app/data/database.server'
import { storedRows } from '#tests/support/database'
import { projectRoot, tempDatabasePath } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const migrationsFolder = join(projectRoot, 'drizzle')

function appliedMigrations(path: string) {
  const database = openDatabase(path, migrationsFolder)
  try {
    return database.sqlite.prepare('SELECT hash FROM __drizzle_migrations ORDER BY id').all()
  } finally {
    database.close()
  }
}

describe('the SQLite database', () => {
  const serve = serverPerTest()

  it('creates the folder, applies every migration to an empty file, and re-applies them as a no-op', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'farm-db-')), 'nested', 'folder', 'farm.db')
    const first = appliedMigrations(path)
    expect(existsSync(path)).toBe(true)
    expect(first.length).toBeGreaterThan(0)

    const database = openDatabase(path, migrationsFolder)
    database.sqlite
      .prepare("INSERT INTO submissions (name, email, message, created_at) VALUES ('A', 'a@b.co', 'Hi', 0)")
      .run()
    database.close()

    expect(appliedMigrations(path)).toEqual(first)
    expect(storedRows(path)).toHaveLength(1)
  })

  it('opens with WAL, full sync and foreign keys on, and no busy wait while serving (writes wait off the event loop)', () => {
    const database = openDatabase(tempDatabasePath(), migrationsFolder)
    try {
      expect(database.sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(database.sqlite.pragma('synchronous', { simple: true })).toBe(2)
      expect(database.sqlite.pragma('busy_timeout', { simple: true })).toBe(0)
      expect(database.sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
    } finally {
      database.close()
    }
  })

  it('reads newest first straight off the primary key, with no sort step', () => {
    const database = openDatabase(tempDatabasePath(), migrationsFolder)
    try {
      const plan = database.sqlite
        .prepare('EXPLAIN QUERY PLAN SELECT * FROM submissions WHERE id > 0 ORDER BY id DESC')
        .all()
        .map((step) => (step as { detail: string }).detail)
        .join('\n')
      expect(plan).toMatch(/USING INTEGER PRIMARY KEY/)
      expect(plan).not.toMatch(/TEMP B-TREE/)
    } finally {
      database.close()
    }
  })

  it('keeps submissions across a restart of the server', async () => {
    const first = await serve()
    const response = await fetch(`${first.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ruth', email: 'ruth@example.com', message: 'Save me a pumpkin.' }),
    })
    const { data } = await response.json()
    expect(await first.stop('SIGTERM')).toBe(0)

    const second = await serve({ databasePath: first.databasePath })
    const list = await (await fetch(`${second.url}/api/submissions`)).json()
    expect(list).toEqual([data])
  })
})
