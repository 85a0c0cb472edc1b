/**
 * How long a ready item may wait for the others still being prepared (analysed), to share
 * their commit. Waiting for them as they finish took POSTs from about 1,700 to 2,100 a second
 * on the bench machine; a language model's slow reading holds the others no longer than this.
 */
const gatherAtMostMs = 2

/**
 * Group commit: items that are ready wait until no other item is still being prepared (at
 * most gatherAtMostMs), then are written in one transaction (one fsync, one search-index
 * flush); each promise settles only once that transaction has committed. A lone item on a
 * quiet site is written at once. While a batch waits for the database (another process holds
 * its lock), what arrives queues behind it. When a batch fails, each item is tried alone, so
 * one that cannot be written does not take the others with it.
 */
export function createGroupCommit<Item, Written>({
  writeAll,
  waitForLock,
  failed,
}: {
  /** Writes the items in one transaction, answering what each became, in order. */
  writeAll(items: Item[]): Written[]
  /** Runs a write, waiting off the event loop while the database is locked. */
  waitForLock<T>(write: () => T): Promise<T>
  /** Counts an item that could not be written. */
  failed(): void
}) {
  type Waiting = { item: Item; written(result: Written): void; failed(error: unknown): void }
  let waiting: Waiting[] = []
  let preparing = 0
  let scheduled: 'now' | 'soon' | null = null
  let gathering: NodeJS.Timeout | undefined
  let writing = false

  async function writeBatch(batch: Waiting[]) {
    let results: Written[]
    try {
      results = await waitForLock(() => writeAll(batch.map(({ item }) => item)))
    } catch {
      for (const one of batch) {
        try {
          one.written(writeAll([one.item])[0]!)
        } catch (error) {
          failed()
          one.failed(error)
        }
      }
      return
    }
    batch.forEach(({ written }, i) => written(results[i]!))
  }

  async function writeWaiting() {
    scheduled = null
    clearTimeout(gathering)
    if (writing) return
    writing = true
    try {
      while (waiting.length > 0) {
        const batch = waiting
        waiting = []
        await writeBatch(batch)
      }
    } finally {
      writing = false
    }
  }

  return {
    /** Says an item is being prepared; call the answer once it is ready or has failed. */
    preparing(): () => void {
      preparing++
      return () => preparing--
    },

    write(item: Item): Promise<Written> {
      return new Promise((written, failed) => {
        waiting.push({ item, written, failed })
        if (writing) return
        if (preparing === 0 && scheduled !== 'now') {
          clearTimeout(gathering)
          scheduled = 'now'
          setImmediate(writeWaiting)
        } else if (scheduled === null) {
          scheduled = 'soon'
          gathering = setTimeout(writeWaiting, gatherAtMostMs)
        }
      })
    },
  }
}
