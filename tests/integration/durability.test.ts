import Sqlite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { listAll } from '#tests/support/list-all'
import { tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const rounds = 20
const clients = 6
// The flood is the point here: lift the per-address submission limit (issue 5, item 5) where there is
// one, to its highest accepted value (10,000 a minute); each round is a fresh process posting far fewer.
const floodAllowed = { SUBMISSION_RATE_LIMIT: '10000' }

interface Acknowledged {
  name: string
  email: string
  message: string
  /** From the 201's body; missing only if the kill cut the body off after the status. */
  id?: number
  aiResponse?: string
  createdAt?: string
}

interface StoredRow {
  id: number
  name: string
  email: string
  message: string
  ai_response: string | null
  created_at: number
}

/** Reads the file as the crash left it: read-only, so recovery is left to the next server. */
function inspect(databasePath: string) {
  const sqlite = new Sqlite(databasePath, { readonly: true, fileMustExist: true })
  try {
    const integrity = sqlite.pragma('integrity_check', { simple: true })
    const rows = sqlite.prepare('SELECT * FROM submissions ORDER BY id').all() as StoredRow[]
    return { integrity, rows }
  } finally {
    sqlite.close()
  }
}

/** The acknowledged submissions that are not in the file exactly as they were answered. */
function missing(acknowledged: Acknowledged[], rows: StoredRow[]) {
  const byId = new Map(rows.map((row) => [row.id, row]))
  const byName = new Map(rows.map((row) => [row.name, row]))
  return acknowledged.filter((ack) => {
    const row = ack.id === undefined ? byName.get(ack.name) : byId.get(ack.id)
    if (!row) return true
    if (row.name !== ack.name || row.email !== ack.email || row.message !== ack.message) return true
    if (ack.aiResponse !== undefined && row.ai_response !== ack.aiResponse) return true
    if (ack.createdAt !== undefined && new Date(row.created_at).toISOString() !== ack.createdAt) return true
    return false
  })
}

/**
 * Several clients post as fast as they can until the server dies under them.
 * Every 201 is recorded; a failure before the kill is a failure of the test.
 */
function postUntilKilled(server: RunningServer, round: number, acknowledged: Acknowledged[]) {
  let killSent = false
  const unexpected: string[] = []
  let attempted = 0
  let roundAcks = 0
  let firstAck: () => void = () => {}
  const firstAcknowledged = new Promise<void>((resolve) => (firstAck = resolve))

  const loops = Array.from({ length: clients }, async (_, client) => {
    for (let n = 0; ; n++) {
      const fields = {
        name: `Round ${round} client ${client} number ${n}`,
        email: `r${round}.c${client}.n${n}@example.com`,
        message: `Crash test: round ${round}, client ${client}, submission ${n}.`,
      }
      attempted++
      let response: Response
      try {
        response = await fetch(`${server.url}/api/submissions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(fields),
          signal: AbortSignal.timeout(15_000),
        })
      } catch (error) {
        if (!killSent) unexpected.push(`client ${client}: ${(error as Error).message}`)
        return
      }
      if (response.status !== 201) {
        if (!killSent) unexpected.push(`client ${client}: status ${response.status}`)
        return
      }
      const ack: Acknowledged = { ...fields }
      acknowledged.push(ack)
      roundAcks++
      firstAck()
      try {
        const { data } = await response.json()
        Object.assign(ack, { id: data.id, aiResponse: data.aiResponse, createdAt: data.createdAt })
      } catch {
        // The kill cut the body off after the 201; the status alone was the promise.
      }
    }
  })

  return {
    firstAcknowledged,
    kill() {
      killSent = true
      server.child.kill('SIGKILL')
    },
    async settled() {
      await Promise.all(loops)
      return { unexpected, attempted, roundAcks }
    },
  }
}

describe('durability', () => {
  // Each round's server is killed by the test; one left by a failure is killed after it.
  const serve = serverPerTest('SIGKILL')

  it(`keeps every submission answered 201 across ${rounds} SIGKILLs under concurrent posting`, async () => {
    const databasePath = tempDatabasePath()
    const acknowledged: Acknowledged[] = []
    let attempted = 0
    let storedUnanswered = 0

    for (let round = 1; round <= rounds; round++) {
      // Each round restarts on the file the last crash left behind.
      const server = await serve({ databasePath, env: floodAllowed })
      const posting = postUntilKilled(server, round, acknowledged)
      await posting.firstAcknowledged
      // A different moment in each round, from right after the first answer to 0.4 s later.
      const delayMs = ((round * 7) % rounds) * 20
      await new Promise((resolve) => setTimeout(resolve, delayMs))
      posting.kill()
      expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' })
      const result = await posting.settled()
      expect(result.unexpected).toEqual([])
      attempted += result.attempted

      const { integrity, rows } = inspect(databasePath)
      expect(integrity, `integrity_check after round ${round}`).toBe('ok')
      expect(missing(acknowledged, rows), `acknowledged but missing after round ${round}`).toEqual([])
      expect(new Set(rows.map((row) => row.name)).size, 'no submission stored twice').toBe(rows.length)
      storedUnanswered = rows.length - acknowledged.length
    }

    // The server starts on what the last crash left and lists every acknowledged submission.
    const server = await serve({ databasePath, env: floodAllowed })
    const listed = await listAll<{ name: string }>(server.url)
    const names = new Set(listed.map((submission) => submission.name))
    expect(acknowledged.filter((ack) => !names.has(ack.name))).toEqual([])
    expect(await server.stop('SIGTERM')).toBe(0)

    const lost = missing(acknowledged, inspect(databasePath).rows).length
    console.log(
      `durability: ${rounds} rounds, ${clients} clients, ${attempted} posts attempted, ` +
        `${acknowledged.length} acknowledged, ${lost} lost, ${storedUnanswered} stored without an answer`,
    )
    expect(lost).toBe(0)
    expect(acknowledged.length).toBeGreaterThanOrEqual(rounds)
  }, 120_000)
})
