import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { migrationsFolder } from '#tests/support/database'
import { tempDatabasePath } from '#tests/support/server'
import { createDeliveryEngine, owedSinceLastLook } from './engine.server'
import type { Sender } from './sender.server'

let database: OpenDatabase | undefined
let engines: Array<ReturnType<typeof createDeliveryEngine>> = []
afterEach(async () => {
  await Promise.all(engines.map((engine) => engine.stop()))
  engines = []
  database?.close()
  database = undefined
})

function engineWithLog() {
  database ??= openDatabase(tempDatabasePath(), migrationsFolder)
  let logged = ''
  const log = pino(new Writable({ write: (chunk, _encoding, done) => ((logged += chunk), done()) }))
  const engine = createDeliveryEngine({ db: database.db, writes: database.writes, log })
  engines.push(engine)
  return { engine, logged: () => logged }
}

/** A sender whose rounds are counted (each reads its setup once), with nothing owed. */
function countedSender(name: string, mayHaveWork?: () => boolean): Sender<null, object> & { rounds: () => number } {
  let rounds = 0
  return {
    kind: 'webhook-post',
    name,
    setup: () => (rounds++, {}),
    retryBaseMs: 1_000,
    batchesOf: () => ({ batches: [] }),
    send: async () => ({ sent: true }),
    words: { later: 'later', refused: 'refused', gaveUp: 'gave up' },
    ...(mayHaveWork ? { mayHaveWork } : {}),
    rounds: () => rounds,
  }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('the delivery engine', () => {
  it('wakes every sender at start, and after a commit only those that may have work', async () => {
    const { engine } = engineWithLog()
    let phonesOwed = false
    const mail = countedSender('mail')
    const pushes = countedSender('pushes', () => phonesOwed)
    engine.deliver(mail)
    engine.deliver(pushes)
    engine.start()
    await settled()
    expect([mail.rounds(), pushes.rounds()]).toEqual([1, 1])
    engine.owed()
    await settled()
    expect([mail.rounds(), pushes.rounds()]).toEqual([2, 1])
    phonesOwed = true
    engine.owed()
    await settled()
    expect([mail.rounds(), pushes.rounds()]).toEqual([3, 2])
  })

  it('wakes a sender guarded by owedSinceLastLook once after each commit that owed it something', async () => {
    const { engine } = engineWithLog()
    const lately = owedSinceLastLook()
    const pushes = countedSender('pushes', lately.mayHaveWork)
    engine.deliver(pushes)
    engine.start()
    await settled()
    engine.owed()
    await settled()
    expect(pushes.rounds()).toBe(1)
    lately.owed()
    engine.owed()
    await settled()
    expect(pushes.rounds()).toBe(2)
    engine.owed()
    await settled()
    expect(pushes.rounds()).toBe(2)
  })

  it('logs a round that threw with the sender’s name, and tries again', async () => {
    const { engine, logged } = engineWithLog()
    const pushes = countedSender('pushes')
    engine.deliver({
      ...pushes,
      retryBaseMs: 50,
      batchesOf: () => {
        throw new Error('no such table: push_messages')
      },
    })
    database!.sqlite
      .prepare(
        "INSERT INTO submissions (name, email, message, created_at) VALUES ('Ann', 'ann@example.com', 'Eggs?', 1)",
      )
      .run()
    database!.sqlite
      .prepare(
        "INSERT INTO deliveries (kind, submission_id, next_attempt_at, created_at) VALUES ('webhook-post', 1, 1, 1)",
      )
      .run()
    engine.start()
    await expect.poll(() => pushes.rounds(), { timeout: 5_000 }).toBeGreaterThanOrEqual(2)
    expect(logged()).toContain('the pushes owed could not be read')
    expect(logged()).toContain('no such table: push_messages')
  })
})
