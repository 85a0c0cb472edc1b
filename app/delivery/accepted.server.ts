import { isBusy, type Writes } from '#app/data/writes.server'
import type { Log } from '#app/log'

/**
 * The one rule for what a receiver accepted before its row could be marked (another process held
 * the database): the item is held here, never sent again, and marked first thing in the next round.
 * `mark` writes one accepted item as sent; `ids` names the rows it covers, so a round skips them.
 */
export function createAcceptedLedger<Accepted>({
  mark,
  ids,
  writes,
  log,
  what,
}: {
  mark: (accepted: Accepted) => void
  ids: (accepted: Accepted) => number[]
  writes: Writes
  log: Log
  /** Names the item in the log line: 'a mail to the owner', 'an update'. */
  what: string
}) {
  let waiting: Accepted[] = []

  /** Marks what is held; throws SQLite's busy error while another process holds the lock. */
  function markHeld() {
    let busy: unknown = null
    waiting = waiting.filter((accepted) => {
      try {
        mark(accepted)
        return false
      } catch (error) {
        if (!isBusy(error)) throw error
        busy = error
        return true
      }
    })
    if (busy) throw busy
  }

  return {
    /** The receiver took it: marks it now, or holds it until the lock is free. */
    async accepted(accepted: Accepted) {
      waiting.push(accepted)
      await writes.whenFree(markHeld).catch((error: unknown) => {
        log.warn({ err: error }, `${what} went out but is not marked sent yet; marking it next round`)
      })
    },
    /** At a round's start: marks what is held; false while the lock is still taken. */
    markHeld(): boolean {
      try {
        markHeld()
        return true
      } catch (error) {
        if (!isBusy(error)) throw error
        return false
      }
    },
    /** The rows accepted and not yet marked: due on paper, never to be sent again. */
    held(): Set<number> {
      return new Set(waiting.flatMap(ids))
    },
    /**
     * At a stop: one last wait for the lock to mark what is held; what still cannot be marked is
     * logged by row, since it will be sent again after the restart.
     */
    async markBeforeStop() {
      if (waiting.length === 0) return
      await writes.whenFree(markHeld).catch((error: unknown) => {
        log.error(
          { err: error, rows: waiting.flatMap(ids) },
          `${what} went out but could not be marked before the stop`,
        )
      })
    },
    get holding() {
      return waiting.length > 0
    },
  }
}
