import { describe, expect, it } from 'vitest'
import { gaveUpWords, hasGivenUp, retryDelayMs, triedForMs } from './backoff'

describe('one backoff for everything owed', () => {
  it('waits twice as long each time from the base, within ±20 %, and never more than an hour and 20 %', () => {
    expect(retryDelayMs(30_000, 1, () => 0.5)).toBe(30_000)
    expect(retryDelayMs(30_000, 2, () => 0.5)).toBe(60_000)
    expect(retryDelayMs(30_000, 3, () => 0)).toBe(96_000)
    expect(retryDelayMs(30_000, 3, () => 1)).toBe(144_000)
    expect(retryDelayMs(30_000, 30, () => 1)).toBe(4_320_000)
  })

  it('gives up a day after it started trying, not a moment before', () => {
    const since = new Date('2026-11-01T08:00:00Z')
    expect(triedForMs).toBe(24 * 60 * 60 * 1000)
    expect(hasGivenUp(since, since.getTime() + triedForMs - 1)).toBe(false)
    expect(hasGivenUp(since, since.getTime() + triedForMs)).toBe(true)
    // Never failed: its day has not started, however old it is.
    expect(hasGivenUp(null, since.getTime() + 365 * triedForMs)).toBe(false)
    expect(gaveUpWords('421 busy')).toBe('Gave up after a day of trying. 421 busy')
    expect(gaveUpWords(null)).toBe('Gave up after a day of trying.')
  })
})
