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
 * quiet site is written at once. When a batch fails, each item is tried alone, so one that
 * cannot be written does not take the others with it.
 */
export function createGroupCommit<Item, Written>({
  writeAll,
}: {
  /** Writes the items in one transaction, answering what each became, in order. */
  writeAll(items: Item[]): Written[]
}) {
  let waiting: Array<{ item: Item; written(result: Written): void; failed(error: unknown): void }> = []
  let preparing = 0
  let scheduled: 'now' | 'soon' | null = null
  let gathering: NodeJS.Timeout | undefined

  function writeWaiting() {
    scheduled = null
    clearTimeout(gathering)
    const batch = waiting
    waiting = []
    let results: Written[]
    try {
      results = writeAll(batch.map(({ item }) => item))
    } catch {
      for (const { item, written, failed } of batch) {
        try {
          written(writeAll([item])[0]!)
        } catch (error) {
          failed(error)
        }
      }
      return
    }
    batch.forEach(({ written }, i) => written(results[i]!))
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
