import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { roundsOnATimer } from './rounds.server'

// The test clock: vitest's fake timers move setTimeout and Date.now together, and only when told.
beforeEach(() => void vi.useFakeTimers({ now: Date.parse('2026-11-26T08:00:00Z') }))
afterEach(() => void vi.useRealTimers())

/** A round the test answers by hand: each call is listed with the resolver of its answer. */
function roundsByHand() {
  const calls: Array<{ at: number; answer: (wakeAt: number | null) => void; fail: (error: Error) => void }> = []
  const round = () =>
    new Promise<number | null>((answer, fail) => {
      calls.push({ at: Date.now(), answer, fail })
    })
  return { calls, round }
}

describe('the round runner', () => {
  it('runs a round when woken, then sleeps until the time the round named, not a moment less', async () => {
    const { calls, round } = roundsByHand()
    const rounds = roundsOnATimer({ round, retryMs: 1_000, failed: () => {} })
    const start = Date.now()
    rounds.wake()
    expect(calls).toHaveLength(1)
    calls[0]!.answer(start + 30_000)
    await vi.advanceTimersByTimeAsync(29_999)
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls.map(({ at }) => at - start)).toEqual([0, 30_000])
    calls[1]!.answer(null)
    await vi.advanceTimersByTimeAsync(24 * 60 * 60 * 1000)
    expect(calls).toHaveLength(2)
  })

  it('runs one more round right after the one under way when woken meanwhile, however often', async () => {
    const { calls, round } = roundsByHand()
    const rounds = roundsOnATimer({ round, retryMs: 1_000, failed: () => {} })
    rounds.wake()
    rounds.wake()
    rounds.wake()
    expect(calls).toHaveLength(1)
    calls[0]!.answer(null)
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toHaveLength(2)
    calls[1]!.answer(null)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls).toHaveLength(2)
  })

  it('tells a round that threw and tries again after retryMs', async () => {
    const { calls, round } = roundsByHand()
    const failures: unknown[] = []
    const rounds = roundsOnATimer({ round, retryMs: 5_000, failed: (error) => failures.push(error) })
    rounds.wake()
    calls[0]!.fail(new Error('database is locked'))
    await vi.advanceTimersByTimeAsync(4_999)
    expect(failures).toEqual([new Error('database is locked')])
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toHaveLength(2)
  })

  it('stops only once the round under way has ended, and runs none after', async () => {
    const { calls, round } = roundsByHand()
    const rounds = roundsOnATimer({ round, retryMs: 1_000, failed: () => {} })
    rounds.wake()
    let stopped = false
    const stopping = rounds.stop().then(() => (stopped = true))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(stopped).toBe(false)
    calls[0]!.answer(Date.now())
    await stopping
    rounds.wake()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toHaveLength(1)
  })
})
