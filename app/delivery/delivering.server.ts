import { asc } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { deliveries } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { Log } from '#app/log'
import { createAcceptedLedger } from './accepted.server'
import { hasGivenUp, retryDelayMs } from './backoff'
import { pause, pausesOf, unpause, type Pause } from './pauses.server'
import { deliveryRecord, dueOf, soonestDue } from './record.server'
import type { Batch, OwedRow, Sender, Settled, Verdict } from './sender.server'

const defaultRowsPerRound = 40
// Rows accepted but not yet marked are due on paper: look again in a while, not at once.
const markAgainAfterMs = 1_000

type Tx = Pick<FarmDatabase, 'update' | 'delete' | 'select' | 'insert'>

/** How one round went so far: whether the receiver took a message, and how many more it may try. */
type Round = { took: boolean; messagesLeft: number; pauses: Map<string, Pause>; gone: Set<string> }

/**
 * The engine's half of every sender: each round picks what is due, gives up what has failed for
 * a day, has the sender carry each message, and writes what its answer means, in one vocabulary
 * for every kind. The sender only builds and carries (app/delivery/sender.ts).
 */
export function createDelivering<Item, Setup>({
  sender,
  db,
  writes,
  log,
  now,
  stopping,
}: {
  sender: Sender<Item, Setup>
  db: FarmDatabase
  writes: Writes
  log: Log
  now: () => number
  stopping: () => boolean
}) {
  const { kind } = sender
  const receiverOf = (batch: Batch<Item>) => (batch.receiver ? `${kind}:${batch.receiver}` : kind)
  const ids = (rows: OwedRow[]) => rows.map((row) => row.id)
  let nextSendAt = 0
  let quietUntil = 0

  /** Writes a state with the sender's own rows that follow from it, in one transaction. */
  async function settle(batch: Batch<Item>, state: Settled, write: (tx: Tx) => void, verdict?: Verdict) {
    await writes.whenFree(() =>
      db.transaction((tx) => {
        write(tx)
        sender.settled?.(tx, batch.rows, state, verdict)
      }),
    )
    sender.told?.(batch.rows, state)
  }

  const accepted = createAcceptedLedger<{ batch: Batch<Item>; sentIn: string | null; at: Date }>({
    mark: ({ batch, sentIn, at }) => {
      db.transaction((tx) => {
        deliveryRecord(tx).sent(ids(batch.rows), at, sentIn)
        unpause(tx, receiverOf(batch))
        sender.settled?.(tx, batch.rows, 'sent')
      })
      sender.told?.(batch.rows, 'sent')
    },
    ids: ({ batch }) => ids(batch.rows),
    writes,
    log,
    what: `a message of the ${sender.name}`,
  })

  async function tryAgain(batch: Batch<Item>, why: string, down: boolean, round: Round) {
    const at = new Date(now())
    await settle(batch, 'retrying', (tx) => {
      const paused = down ? pause(tx, receiverOf(batch), sender.retryBaseMs, at) : null
      if (paused) round.pauses.set(receiverOf(batch), paused)
      for (const row of batch.rows) {
        const own = paused ? paused.until : new Date(at.getTime() + retryDelayMs(sender.retryBaseMs, row.attempts + 1))
        deliveryRecord(tx).retrying(row, own, why, at)
      }
    })
    log.warn({ sender: sender.name, rows: batch.rows.length, reason: why, ...sender.backlog?.() }, sender.words.later)
  }

  async function apply(batch: Batch<Item>, verdict: Verdict, round: Round) {
    if ('sent' in verdict) {
      round.took = true
      return accepted.accepted({ batch, sentIn: verdict.sentIn ?? null, at: new Date(now()) })
    }
    if ('refused' in verdict) {
      if (verdict.gone) round.gone.add(receiverOf(batch))
      await settle(batch, 'failed', (tx) => deliveryRecord(tx).failed(ids(batch.rows), verdict.refused), verdict)
      return log.error(
        { sender: sender.name, rows: batch.rows.length, reason: verdict.refused, ...sender.backlog?.() },
        sender.words.refused,
      )
    }
    if ('later' in verdict) return tryAgain(batch, verdict.later, false, round)
    if ('receiverDown' in verdict) return tryAgain(batch, verdict.receiverDown, true, round)
    if ('notYet' in verdict) return writes.whenFree(() => deliveryRecord(db).deferred(ids(batch.rows), verdict.notYet))
    if ('skipped' in verdict) {
      const why = verdict.skipped
      return settle(batch, 'skipped', (tx) => {
        for (const row of batch.rows) deliveryRecord(tx).skipped(row.id, why)
      })
    }
  }

  /**
   * Carries one message. One the receiver refuses for what is in it is halved, down to one row,
   * so one it will not take does not hold back the rest; that one fails only once the receiver
   * took another this round (else it refuses everything, and all are tried again).
   */
  async function carry(batch: Batch<Item>, setup: Setup, round: Round): Promise<void> {
    if (round.messagesLeft <= 0) return tryAgain(batch, 'Too many refused messages this round.', false, round)
    round.messagesLeft--
    const verdict = await sender.send(batch, setup)
    if (!('refusedMessage' in verdict)) return apply(batch, verdict, round)
    // A sender of one row a message has nothing to halve, and no other to compare: refused for good.
    if (!sender.regroup) return apply(batch, { refused: verdict.refusedMessage }, round)
    if (batch.rows.length > 1) {
      const half = Math.ceil(batch.rows.length / 2)
      for (const rows of [batch.rows.slice(0, half), batch.rows.slice(half)]) {
        if (stopping()) return
        await carry(sender.regroup(batch, rows), setup, round)
      }
      return
    }
    const why = verdict.refusedMessage
    return apply(batch, round.took ? { refused: why } : { later: why }, round)
  }

  async function giveUp(rows: OwedRow[]) {
    if (rows.length === 0) return
    await writes.whenFree(() =>
      db.transaction((tx) => {
        deliveryRecord(tx).gaveUp(rows)
        sender.settled?.(tx, rows, 'gave-up')
      }),
    )
    sender.told?.(rows, 'gave-up')
    log.error({ sender: sender.name, rows: rows.length, reason: rows[0]!.lastError }, sender.words.gaveUp)
  }

  const dueRows = (at: number, limit: number) =>
    db
      .select()
      .from(deliveries)
      .where(dueOf(kind, new Date(at)))
      .orderBy(asc(deliveries.id))
      .limit(limit)
      .all()

  /** One round: sends what is due; resolves with when to look again (ms since the epoch), or null. */
  async function round(): Promise<number | null> {
    if (!accepted.markHeld()) return now() + markAgainAfterMs
    const setup = sender.setup()
    // Off: what was owed waits, to go once it is set up again.
    if (!setup || stopping()) return null
    const at = now()
    const pauses = pausesOf(db, kind)
    const waitAll = pauses.get(kind)
    if (waitAll && waitAll.until.getTime() > at) return waitAll.until.getTime()
    if (at < nextSendAt) return nextSendAt
    const limit = sender.mostRowsPerRound?.(setup) ?? defaultRowsPerRound
    const held = accepted.held()
    const rows = dueRows(at, limit + held.size).filter((row) => !held.has(row.id))
    const expired = rows.filter((row) => hasGivenUp(row.failingSince, at))
    await giveUp(expired)
    const live = rows.filter((row) => !expired.includes(row))
    const { batches, lookAgainAt = null } = sender.batchesOf(live, setup, at)
    const state: Round = { took: false, messagesLeft: sender.mostPerRound ?? Infinity, pauses, gone: new Set() }
    const pace = sender.paceMs?.(setup) ?? 0
    for (const batch of batches) {
      if (stopping()) break
      if (state.gone.has(receiverOf(batch))) continue
      const waiting = state.pauses.get(receiverOf(batch))
      if (waiting && waiting.until.getTime() > now()) {
        await writes.whenFree(() => deliveryRecord(db).deferred(ids(batch.rows), waiting.until, waiting.failingSince))
        continue
      }
      await carry(batch, setup, state)
      if (pace > 0) {
        nextSendAt = now() + pace
        break
      }
    }
    if (rows.length >= limit) return Math.max(now(), nextSendAt)
    if (accepted.holding) return now() + markAgainAfterMs
    const next = soonestDue(db, kind)
    const wakeAt = next === null ? null : Math.max(next, lookAgainAt ?? 0, nextSendAt)
    quietUntil = lookAgainAt !== null && wakeAt !== null ? wakeAt : 0
    return wakeAt
  }

  return {
    round,
    /** Whether a commit that owed something should wake it: not while it holds back what is due on purpose. */
    mayHaveWork: () => now() >= quietUntil && (sender.mayHaveWork?.() ?? true),
    lastly: accepted.markBeforeStop,
  }
}
