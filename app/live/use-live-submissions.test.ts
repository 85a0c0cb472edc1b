import { describe, expect, it } from 'vitest'
import { retryDelayMs } from './use-live-submissions'

describe('retryDelayMs', () => {
  it('doubles with every attempt, between half and all of the ceiling', () => {
    expect(retryDelayMs(0, () => 0)).toBe(250)
    expect(retryDelayMs(0, () => 1)).toBe(500)
    expect(retryDelayMs(1, () => 1)).toBe(1000)
    expect(retryDelayMs(3, () => 0.5)).toBe(3000)
  })

  it('never waits longer than 30 seconds', () => {
    expect(retryDelayMs(20, () => 1)).toBe(30_000)
    expect(retryDelayMs(20, () => 0)).toBe(15_000)
  })
})
