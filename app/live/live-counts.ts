import { useMemo, useSyncExternalStore } from 'react'
import type { TagCount } from '#app/submissions/submission'

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
export function countsMoved(counts: TagCount[]) {
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

/**
 * What a loader counted, with every reading the link brought since laid over it: for each
 * count, whichever the server read last. A count the loader did not list was nought then.
 */
export function useCounts(loaded: TagCount[]): TagCount[] {
  const seen = useSyncExternalStore(
    subscribe,
    () => version,
    () => 0,
  )
  return useMemo(() => (seen === 0 ? loaded : newestReadings(loaded, moved.values())), [loaded, seen])
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

/** How many submissions are new: the root loader's count, or a later reading the link brought. */
export function useNewCount(loaded: TagCount | null): number | null {
  const counted = useMemo(() => (loaded ? [loaded] : []), [loaded])
  const newest = useCounts(counted).find((count) => keyOf(count) === 'status:new')
  return loaded === null ? null : (newest?.count ?? loaded.count)
}
