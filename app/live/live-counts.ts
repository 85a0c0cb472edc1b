import { useMemo, useSyncExternalStore } from 'react'
import type { TagCount } from '#app/leads/lead'

/**
 * The newest reading of each count that the live link (or the answer to the owner's own
 * change) brought: the filters' numbers and the header's "new" badge follow them without
 * reading the loaders again. Browser state only: the server renders what it loaded.
 */
const moved = new Map<string, TagCount>()
let version = 0
const listeners = new Set<() => void>()

const keyOf = ({ kind, value }: Pick<TagCount, 'kind' | 'value'>) => `${kind}:${value}`

/** Takes the counts a change moved, as a frame or an answer carries them; an older reading never wins. */
function countsMoved(counts: TagCount[]) {
  let newer = false
  for (const count of counts) {
    const held = moved.get(keyOf(count))
    if (held && held.at >= count.at) continue
    moved.set(keyOf(count), count)
    newer = true
  }
  if (!newer) return
  version++
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** What the root hands its pages through the outlet, so only the root's bundle holds this store. */
export interface LiveCounts {
  /** A loader's counts with every later reading the link brought laid over them. */
  laidOver(loaded: TagCount[]): TagCount[]
  /** A count the header shows (new submissions, failed mails): the loaded one, or a later reading. */
  latest(loaded: TagCount | null): number | null
  /** Takes the counts a frame or a change's answer carries. */
  moved(counts: TagCount[]): void
}

/** The live counts, new each time a reading arrives, so whatever shows them renders again. */
export function useLiveCounts(): LiveCounts {
  const seen = useSyncExternalStore(
    subscribe,
    () => version,
    () => 0,
  )
  return useMemo(() => {
    const laidOver = (loaded: TagCount[]) => (seen === 0 ? loaded : newestReadings(loaded, moved.values()))
    return {
      laidOver,
      latest: (loaded) =>
        loaded === null ? null : laidOver([loaded]).find((count) => keyOf(count) === keyOf(loaded))!.count,
      moved: countsMoved,
    }
  }, [seen])
}

/** For each count, the later of what was loaded and what moved since; a count not loaded was nought then. */
export function newestReadings(loaded: TagCount[], moved: Iterable<TagCount>): TagCount[] {
  const loadedAt = Math.max(0, ...loaded.map((count) => count.at))
  const merged = new Map(loaded.map((count) => [keyOf(count), count]))
  for (const count of moved) {
    if (count.at > (merged.get(keyOf(count))?.at ?? loadedAt)) merged.set(keyOf(count), count)
  }
  return [...merged.values()]
}
