import { isIPv6 } from 'node:net'

export type Taken = { ok: true } | { ok: false; retryAfterSeconds: number }

export interface RateLimit {
  /** Counts one attempt from the address; refused once the window's allowance is spent. */
  take(address: string): Taken
  /** Whether the address's allowance is used up, counting nothing (for limits on failures only). */
  spent(address: string): Taken
}

interface Window {
  count: number
  endsAt: number
}

interface Options {
  limit: number
  windowMs: number
  now?: () => number
}

/**
 * Everyone on one IPv6 /64 is one visitor: a single home or phone gets a whole /64 and can
 * pick a fresh address from it for every request.
 */
export function visitorKey(address: string): string {
  const plain = address.startsWith('::ffff:') && !isIPv6(address.slice(7)) ? address.slice(7) : address
  if (!isIPv6(plain)) return plain
  const [head = '', tail = ''] = plain.toLowerCase().split('::')
  const headGroups = head ? head.split(':') : []
  const tailGroups = tail ? tail.split(':') : []
  const groups = plain.includes('::')
    ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`
}

/**
 * A fixed window per visitor, kept in memory (one process, see decision 003). Windows that
 * have ended are swept as new ones open, so memory follows the visitors of the last window.
 */
export function createRateLimit({ limit, windowMs, now = Date.now }: Options): RateLimit {
  const windows = new Map<string, Window>()
  let nextSweep = 0

  function sweep(at: number) {
    if (at < nextSweep) return
    nextSweep = at + windowMs
    for (const [key, window] of windows) if (window.endsAt <= at) windows.delete(key)
  }

  const verdict = (window: Window, at: number, allowed = limit): Taken =>
    window.count <= allowed
      ? { ok: true }
      : { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - at) / 1000)) }

  return {
    take(address) {
      const at = now()
      sweep(at)
      const key = visitorKey(address)
      let window = windows.get(key)
      if (!window || window.endsAt <= at) {
        window = { count: 0, endsAt: at + windowMs }
        windows.set(key, window)
      }
      window.count += 1
      return verdict(window, at)
    },
    spent(address) {
      const at = now()
      const window = windows.get(visitorKey(address))
      // Spent once the allowance is used up: the next attempt would be one too many.
      return window && window.endsAt > at ? verdict(window, at, limit - 1) : { ok: true }
    },
  }
}
