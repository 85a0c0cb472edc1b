import Sqlite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server'

let running: RunningServer | undefined

afterEach(async () => {
  running?.child.kill('SIGKILL')
  await running?.exited
  running = undefined
})

/** Breaks the database under the running server the way a bad migration or a stray admin would. */
function renameTable(databasePath: string, from: string, to: string) {
  const sqlite = new Sqlite(databasePath, { fileMustExist: true })
  try {
    sqlite.exec(`ALTER TABLE ${from} RENAME TO ${to}`)
  } finally {
    sqlite.close()
  }
}
const breakDatabase = (path: string) => renameTable(path, 'submissions', 'submissions_parked')
const repairDatabase = (path: string) => renameTable(path, 'submissions_parked', 'submissions')

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} while the database answers, 503 JSON while it fails, and recovers', async () => {
    const server = (running = await startServer())
    const healthz = async () => {
      const response = await fetch(`${server.url}/healthz`)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      return { status: response.status, body: await response.json() }
    }

    expect(await healthz()).toEqual({ status: 200, body: { status: 'ok' } })

    breakDatabase(server.databasePath)
    const failing = await healthz()
    expect(failing.status).toBe(503)
    expect(failing.body.error).toEqual(expect.any(String))
    expect(failing.body.error.length).toBeGreaterThan(0)
    expect(JSON.stringify(failing.body)).not.toMatch(/SqliteError|no such table|\n\s+at /)

    repairDatabase(server.databasePath)
    expect(await healthz()).toEqual({ status: 200, body: { status: 'ok' } })
  })
})
