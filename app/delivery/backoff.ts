const hourMs = 60 * 60 * 1000

/** How long anything owed is tried before it is given up, whatever its kind. */
export const triedForMs = 24 * hourMs

/**
 * Whether something failing since `failingSince` (its first failure without a break; null while it
 * has not failed) has been tried long enough, at `now` (ms since the epoch).
 */
export const hasGivenUp = (failingSince: Date | null, now: number) =>
  failingSince !== null && now - failingSince.getTime() >= triedForMs

/** The wait before attempt n + 1: doubling from the base, at most an hour, ±20 % so retries spread. */
export function retryDelayMs(baseMs: number, attempts: number, random = Math.random): number {
  const doubled = Math.min(hourMs, baseMs * 2 ** Math.min(attempts - 1, 20))
  return Math.round(doubled * (0.8 + 0.4 * random()))
}

/** The words kept on something given up: why it was, and the last failure's own words. */
export const gaveUpWords = (lastError: string | null) => `Gave up after a day of trying. ${lastError ?? ''}`.trim()
