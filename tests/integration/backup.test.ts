import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import Sqlite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storedRows } from '#tests/support/database'
import { projectRoot, startServer, type RunningServer } from '#tests/support/server'

const run = promisify(execFile)

function backup(databasePath: string, destination: string) {
  return run('npm', ['run', '--silent', 'db:backup', '--', destination], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_PATH: databasePath },
  })
}

function post(server: RunningServer, name: string) {
  return fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, email: 'kept@example.com', message: `A message from ${name}.` }),
  })
}

describe('npm run db:backup', () => {
  let server: RunningServer
  const folder = mkdtempSync(join(tmpdir(), 'farm-backup-'))

  beforeAll(async () => {
    server = await startServer()
    for (const name of ['Ada', 'Bea', 'Cy']) expect((await post(server, name)).status).toBe(201)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('copies the live WAL database while the server runs, and the copy has every row and passes integrity_check', async () => {
    // The rows are still in the write-ahead log, not yet in farm.db itself.
    expect(statSync(`${server.databasePath}-wal`).size).toBeGreaterThan(0)

    const destination = join(folder, 'nested', 'copy.db')
    const { stdout } = await backup(server.databasePath, destination)
    expect(stdout).toMatch(/3 submissions, \d+ pages, integrity ok/)

    // The server keeps taking submissions while and after the copy is made.
    expect((await post(server, 'Dot')).status).toBe(201)

    const copy = new Sqlite(destination, { readonly: true, fileMustExist: true })
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete')
    } finally {
      copy.close()
    }
    expect(existsSync(`${destination}-wal`)).toBe(false)
    expect(storedRows(destination).map((row) => row.name)).toEqual(['Ada', 'Bea', 'Cy'])
    expect(storedRows(server.databasePath)).toHaveLength(4)
  })

  it('refuses to overwrite an existing file, and says so', async () => {
    const destination = join(folder, 'once.db')
    await backup(server.databasePath, destination)
    await expect(backup(server.databasePath, destination)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('already exists'),
    })
  })

  it('fails with a clear message when there is no database', async () => {
    await expect(backup(join(folder, 'missing.db'), join(folder, 'never.db'))).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('there is no database'),
    })
    expect(existsSync(join(folder, 'never.db'))).toBe(false)
  })
})
