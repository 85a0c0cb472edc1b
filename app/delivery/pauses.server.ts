import { eq, like, or } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { DeliveryKind } from '#app/data/enums'
import { receiverPauses } from '#app/data/schema'
import { retryDelayMs } from './backoff'

// Longer than the longest wait (an hour, and a fifth for the spread).
const staleAfterMs = 2 * 60 * 60 * 1000

export type Pause = { until: Date; failingSince: Date }

/** The receivers of a kind that wait, by name: the kind's own (`update-mail`) and each of its own (`push:12`). */
export function pausesOf(db: Pick<FarmDatabase, 'select'>, kind: DeliveryKind): Map<string, Pause> {
  const rows = db
    .select()
    .from(receiverPauses)
    .where(or(eq(receiverPauses.receiver, kind), like(receiverPauses.receiver, `${kind}:%`)))
    .all()
  return new Map(rows.map(({ receiver, until, failingSince }) => [receiver, { until, failingSince }]))
}

/**
 * The receiver failed once more in a row: it waits twice as long as last time (from
 * `retryBaseMs`, at most an hour). Answers until when, and since when it has failed.
 */
export function pause(
  db: Pick<FarmDatabase, 'select' | 'insert'>,
  receiver: string,
  retryBaseMs: number,
  at: Date,
): Pause {
  const [found] = db.select().from(receiverPauses).where(eq(receiverPauses.receiver, receiver)).all()
  // A pause long over, with nothing tried since, is not part of this run of failures.
  const last = found && at.getTime() - found.until.getTime() < staleAfterMs ? found : undefined
  const failuresInARow = (last?.failuresInARow ?? 0) + 1
  const until = new Date(at.getTime() + retryDelayMs(retryBaseMs, failuresInARow))
  const failingSince = last?.failingSince ?? at
  db.insert(receiverPauses)
    .values({ receiver, until, failuresInARow, failingSince })
    .onConflictDoUpdate({ target: receiverPauses.receiver, set: { until, failuresInARow, failingSince } })
    .run()
  return { until, failingSince }
}

/** It took a message: no longer waits. */
export function unpause(db: Pick<FarmDatabase, 'delete'>, receiver: string): void {
  db.delete(receiverPauses).where(eq(receiverPauses.receiver, receiver)).run()
}

/** New settings for these kinds: their receivers are tried again at once. */
export function unpauseKinds(db: Pick<FarmDatabase, 'delete'>, kinds: DeliveryKind[]): void {
  for (const kind of kinds) {
    db.delete(receiverPauses)
      .where(or(eq(receiverPauses.receiver, kind), like(receiverPauses.receiver, `${kind}:%`)))
      .run()
  }
}
