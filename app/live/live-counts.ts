import { useMemo, useRef, useSyncExternalStore } from 'react'
import type { TagCount } from '#app/submissions/submission'

/**
 * The counts the live link (or the answer to the owner's own change) brought, newer than what
 * the page's loaders counted: the filters' numbers and the header's "new" badge follow them
 * without reading the loaders again. Browser state only: the server renders what it loaded.
 */
let sequence = 0
const moved = new Map<string, { count: TagCount; sequence: number }>()
const listeners = new Set<() => void>()

const keyOf = ({ kind, value }: Pick<TagCount, 'kind' | 'value'>) => `${kind}:${value}`

/** Takes the counts a change moved, as a frame or an answer carries them. */
export function countsMoved(counts: TagCount[]) {
  if (counts.length === 0) return
  sequence++
  for (const count of counts) moved.set(keyOf(count), { count, sequence })
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/**
 * What a loader counted, with every count that moved since that loader data arrived laid over
 * it. `loaded` must be a new array exactly when the loader ran again.
 */
export function useCounts(loaded: TagCount[]): TagCount[] {
  const now = useSyncExternalStore(
    subscribe,
    () => sequence,
    () => 0,
  )
  // The sequence at the moment this loader data was first shown: only later moves apply to it.
  const since = useRef({ loaded, sequence: now })
  if (since.current.loaded !== loaded) since.current = { loaded, sequence: now }
  const from = since.current.sequence
  return useMemo(() => {
    if (now === from) return loaded
    const merged = new Map(loaded.map((count) => [keyOf(count), count]))
    for (const [key, entry] of moved) if (entry.sequence > from) merged.set(key, entry.count)
    return [...merged.values()]
  }, [loaded, now, from])
}
