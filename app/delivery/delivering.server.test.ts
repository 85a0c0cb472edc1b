import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import type { DeliveryKind } from '#app/data/enums'
import { migrationsFolder } from '#tests/support/database'
import { tempDatabasePath } from '#tests/support/server'
import { createDelivering } from './delivering.server'
import { deliveryRecord, dueAgainNow, owe } from './record.server'
import type { Batch, OwedRow, Sender, Verdict } from './sender.server'

const hourMs = 60 * 60 * 1000
const start = Date.parse('2026-11-26T08:00:00Z')
let database: OpenDatabase | undefined
afterEach(() => {
  database?.close()
  database = undefined
})

type Row = {
  id: number
  state: string
  attempts: number
  next: number
  since: number | null
  error: string | null
  sentIn: string | null
}
const rows = () =>
  database!.sqlite
    .prepare(
      'SELECT id, state, attempts, next_attempt_at AS next, failing_since AS since, last_error AS error, sent_in AS sentIn FROM deliveries ORDER BY id',
    )
    .all() as Row[]

/** A database owing `count` posts of a kind (the engine does not read what they are about). */
function owing(count: number, kind: DeliveryKind = 'webhook-post') {
  database = openDatabase(tempDatabasePath(), migrationsFolder)
  const lead = database.sqlite
    .prepare("INSERT INTO submissions (name, email, message, created_at) VALUES ('Ann', 'ann@example.com', 'Eggs?', 1)")
    .run().lastInsertRowid
  for (let n = 0; n < count; n++)
    owe(database.db, { kind, submissionId: Number(lead), receiptKey: `msg_${n}` }, new Date(start))
  return database
}

/**
 * A sender of one row a message (or all rows in one, with `together`) that answers each try as
 * `answer` says, and remembers what it carried; on the engine's clock `clock.at`.
 */
function scripted(
  answer: (rows: OwedRow[]) => Verdict,
  options: Partial<Sender<null, object>> & { together?: boolean } = {},
) {
  const clock = { at: start }
  const carried: number[][] = []
  const settledStates: string[] = []
  let logged = ''
  const log = pino(new Writable({ write: (chunk, _encoding, done) => ((logged += chunk), done()) }))
  const sender: Sender<null, object> = {
    kind: 'webhook-post',
    name: 'test posts',
    setup: () => ({}),
    retryBaseMs: 10_000,
    batchesOf: (due) => ({
      batches: options.together ? [{ rows: due, item: null }] : due.map((row) => ({ rows: [row], item: null })),
    }),
    send: async (batch: Batch<null>) => {
      carried.push(batch.rows.map((row) => row.id))
      return answer(batch.rows)
    },
    settled: (_tx, settledRows, state) =>
      void settledStates.push(`${state}:${settledRows.map((row) => row.id).join(',')}`),
    words: { later: 'could not post', refused: 'the endpoint refused a post', gaveUp: 'gave up posting' },
    ...options,
  }
  const delivering = () =>
    createDelivering({
      sender,
      db: database!.db,
      writes: database!.writes,
      log,
      now: () => clock.at,
      stopping: () => false,
    })
  return { clock, carried, settledStates, delivering, logged: () => logged }
}

describe('what the engine writes of each answer', () => {
  it('marks a sent message’s rows sent, with what held them, and its hook runs in the same transaction', async () => {
    owing(2)
    const run = scripted(() => ({ sent: true, sentIn: 'digest-1' }), { together: true })
    await run.delivering().round()
    expect(rows().map(({ state, sentIn }) => [state, sentIn])).toEqual([
      ['sent', 'digest-1'],
      ['sent', 'digest-1'],
    ])
    expect(run.settledStates).toEqual(['sent:1,2'])
  })

  it('fails a refused row with the receiver’s words, and tries a row not taken again after a backoff', async () => {
    owing(2)
    const run = scripted(([row]) => (row!.id === 1 ? { refused: '550 No such user' } : { later: '450 Mailbox busy' }))
    const next = await run.delivering().round()
    const [refused, later] = rows()
    expect(refused).toMatchObject({ state: 'failed', error: '550 No such user', attempts: 0 })
    expect(later).toMatchObject({ state: 'retrying', error: '450 Mailbox busy', attempts: 1, since: start })
    expect(later!.next).toBeGreaterThanOrEqual(start + 8_000)
    expect(later!.next).toBeLessThanOrEqual(start + 12_000)
    expect(next).toBe(later!.next)
    expect(run.logged()).toContain('the endpoint refused a post')
    expect(run.logged()).toContain('could not post')
  })

  it('pauses a receiver that is down in the database: the rest wait behind it, and a restart does not hurry it', async () => {
    owing(3)
    const run = scripted(() => ({ receiverDown: 'connect ECONNREFUSED 127.0.0.1:1' }))
    const next = await run.delivering().round()
    expect(run.carried).toEqual([[1]])
    const [tried, ...behind] = rows()
    expect(tried).toMatchObject({ state: 'retrying', attempts: 1, next })
    for (const row of behind) expect(row).toMatchObject({ state: 'queued', attempts: 0, next, since: start })
    const pause = database!.sqlite.prepare('SELECT * FROM receiver_pauses').all()
    expect(pause).toEqual([{ receiver: 'webhook-post', until: next, failures_in_a_row: 1, failing_since: start }])

    // A restart: a new engine over the same file waits until the pause is over.
    const restarted = run.delivering()
    run.clock.at = start + 1_000
    expect(await restarted.round()).toBe(next)
    expect(run.carried).toEqual([[1]])
    // Over, and down again: the wait doubles.
    run.clock.at = next!
    const again = await restarted.round()
    expect(run.carried).toEqual([[1], [1]])
    expect(again! - next!).toBeGreaterThanOrEqual(16_000)
    expect(again! - next!).toBeLessThanOrEqual(24_000)
  })

  it('ends a pause when the receiver takes a message, and when the owner saves new settings', async () => {
    owing(2)
    let down = true
    const run = scripted(() => (down ? { receiverDown: '421 Try later' } : { sent: true }))
    const delivering = run.delivering()
    const until = await delivering.round()
    const pauses = () => database!.sqlite.prepare('SELECT count(*) AS n FROM receiver_pauses').get()
    expect(pauses()).toEqual({ n: 1 })
    dueAgainNow(database!.db, ['webhook-post'], new Date(start + 1_000))
    expect(pauses()).toEqual({ n: 0 })
    expect(rows().map((row) => row.next)).toEqual([start + 1_000, start + 1_000])
    run.clock.at = start + 1_000
    await delivering.round()
    expect(pauses()).toEqual({ n: 1 })
    down = false
    run.clock.at = until! + 60_000
    await delivering.round()
    expect(pauses()).toEqual({ n: 0 })
    expect(rows().map((row) => row.state)).toEqual(['sent', 'sent'])
  })

  it('halves a message refused for what is in it, down to the one row the receiver will not take', async () => {
    owing(4)
    const run = scripted(
      (batch) => (batch.some((row) => row.id === 3) ? { refusedMessage: '554 Message rejected' } : { sent: true }),
      {
        together: true,
        regroup: (_batch, part) => ({ rows: part, item: null }),
      },
    )
    await run.delivering().round()
    expect(run.carried).toEqual([[1, 2, 3, 4], [1, 2], [3, 4], [3], [4]])
    expect(rows().map((row) => row.state)).toEqual(['sent', 'sent', 'failed', 'sent'])
    expect(rows()[2]!.error).toBe('554 Message rejected')
  })

  it('tries a refused message again when the receiver took nothing else that round: it may refuse everything', async () => {
    owing(1)
    const run = scripted(() => ({ refusedMessage: '554 Not now' }), {
      regroup: (_batch, part) => ({ rows: part, item: null }),
    })
    await run.delivering().round()
    expect(rows()[0]).toMatchObject({ state: 'retrying', attempts: 1, error: '554 Not now' })
  })

  it('refuses a message for good from a sender of one row a message (nothing to halve)', async () => {
    owing(1)
    const run = scripted(() => ({ refusedMessage: '554 Spam' }))
    await run.delivering().round()
    expect(rows()[0]).toMatchObject({ state: 'failed', error: '554 Spam' })
  })

  it('gives up what has failed for a day without trying it again, with the last words', async () => {
    owing(2)
    database!.sqlite
      .prepare(
        "UPDATE deliveries SET state = 'retrying', attempts = 9, failing_since = ?, last_error = 'The endpoint answered 500.' WHERE id = 1",
      )
      .run(start - 24 * hourMs)
    const run = scripted(() => ({ sent: true }))
    await run.delivering().round()
    expect(run.carried).toEqual([[2]])
    expect(rows()[0]).toMatchObject({
      state: 'gave-up',
      error: 'Gave up after a day of trying. The endpoint answered 500.',
    })
    expect(run.settledStates).toContain('gave-up:1')
    expect(run.logged()).toContain('gave up posting')
  })

  it('skips what is no longer owed, leaves what is not due yet untried, and sends nothing more to a receiver gone', async () => {
    owing(4)
    const until = new Date(start + 60_000)
    const run = scripted(([row]) =>
      row!.id === 1
        ? { skipped: 'Their phone’s notifications are off' }
        : row!.id === 2
          ? { notYet: until }
          : { refused: '410 Gone', gone: true },
    )
    await run.delivering().round()
    expect(run.carried).toEqual([[1], [2], [3]])
    expect(rows().map(({ state, attempts, next }) => [state, attempts, next])).toEqual([
      ['skipped', 0, start],
      ['queued', 0, until.getTime()],
      ['failed', 0, start],
      ['queued', 0, start],
    ])
  })

  it('never writes a state over one that came back: a bounce read before the receiver’s late answer stays bounced', async () => {
    owing(1)
    const run = scripted(() => {
      deliveryRecord(database!.db).bounced(1, '550 5.1.1 User unknown')
      return { sent: true }
    })
    await run.delivering().round()
    expect(rows()[0]).toMatchObject({ state: 'bounced', error: '550 5.1.1 User unknown' })
  })

  it('sends one message a round at a pace, and says when the next may go', async () => {
    owing(3)
    const run = scripted(() => ({ sent: true }), { paceMs: () => 30_000 })
    const delivering = run.delivering()
    expect(await delivering.round()).toBe(start + 30_000)
    expect(run.carried).toEqual([[1]])
    expect(await delivering.round()).toBe(start + 30_000)
    expect(run.carried).toEqual([[1]])
  })
})
