import { setTimeout as sleep } from 'node:timers/promises'
import { textOf } from '#app/outside'

/** SQLite's answer when another connection (a backup, an `sqlite3` shell) holds the lock a write needs. */
export function isBusy(error: unknown): boolean {
  const code = textOf(error, 'code')
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

const minuteMs = 60_000
// Enough to say "writes are failing"; a flood of failures does not need each one kept.
const mostRemembered = 1_000

export interface Writes {
  /**
   * Runs a write; while another process holds the lock, tries again off the event loop (the
   * connection's own busy wait would stop the whole site) for up to `waitAtMostMs`. A write
   * that still fails is counted and thrown.
   */
  whenFree<T>(write: () => T): Promise<T>
  /** The same wait, for a caller that counts its own failures (a batch, whose items are tried alone). */
  waitForLock<T>(write: () => T): Promise<T>
  /** Counts a write that failed. */
  failed(): void
  failedInLastMinute(): number
}

export function createWrites({ waitAtMostMs = 5_000, now = Date.now } = {}): Writes {
  const failures: number[] = []
  const failed = () => {
    failures.push(now())
    if (failures.length > mostRemembered) failures.shift()
  }
  async function waitForLock<T>(write: () => T): Promise<T> {
    const deadline = now() + waitAtMostMs
    for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
      try {
        return write()
      } catch (error) {
        if (!isBusy(error) || now() + pause > deadline) throw error
      }
      await sleep(pause)
    }
  }
  return {
    waitForLock,
    async whenFree(write) {
      try {
        return await waitForLock(write)
      } catch (error) {
        failed()
        throw error
      }
    },
    failed,
    failedInLastMinute() {
      const since = now() - minuteMs
      while (failures.length > 0 && failures[0]! < since) failures.shift()
      return failures.length
    },
  }
}
