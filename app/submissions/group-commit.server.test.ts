import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createGroupCommit } from './group-commit.server'

beforeEach(() => void vi.useFakeTimers())
afterEach(() => void vi.useRealTimers())

/** A group commit over a list standing for the database: each transaction is one entry of `commits`. */
function commitsToList({ failOn }: { failOn?: string } = {}) {
  const commits: string[][] = []
  let failures = 0
  const group = createGroupCommit<string, string>({
    writeAll: (items) => {
      if (failOn && items.includes(failOn)) throw new Error(`cannot write ${failOn}`)
      commits.push(items)
      return items.map((item) => `${item} stored`)
    },
    waitForLock: async (write) => write(),
    failed: () => failures++,
  })
  return { group, commits, failures: () => failures }
}

describe('the group commit', () => {
  it('writes a lone item at once, in its own transaction', async () => {
    const { group, commits } = commitsToList()
    const written = group.write('ann')
    await vi.advanceTimersByTimeAsync(0)
    expect(await written).toBe('ann stored')
    expect(commits).toEqual([['ann']])
  })

  it('holds ready items while others are being prepared, then writes them all in one transaction', async () => {
    const { group, commits } = commitsToList()
    const bobReady = group.preparing()
    const ann = group.write('ann')
    const cyd = group.write('cyd')
    // Still within the gathering time: nothing is written while Bob is being prepared.
    expect(commits).toEqual([])
    bobReady()
    const bob = group.write('bob')
    await vi.advanceTimersByTimeAsync(2)
    expect(await Promise.all([ann, cyd, bob])).toEqual(['ann stored', 'cyd stored', 'bob stored'])
    expect(commits).toEqual([['ann', 'cyd', 'bob']])
  })

  it('waits for a slow preparation no longer than the gathering time', async () => {
    const { group, commits } = commitsToList()
    group.preparing()
    const ann = group.write('ann')
    await vi.advanceTimersByTimeAsync(1)
    expect(commits).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(await ann).toBe('ann stored')
    expect(commits).toEqual([['ann']])
  })

  it('tries each item of a failed batch alone, so one that cannot be written takes no other with it', async () => {
    const { group, commits, failures } = commitsToList({ failOn: 'bad' })
    const ready = group.preparing()
    const ann = group.write('ann')
    const bad = group.write('bad')
    ready()
    const cyd = group.write('cyd')
    const badFailed = expect(bad).rejects.toThrow('cannot write bad')
    await vi.advanceTimersByTimeAsync(2)
    expect(await ann).toBe('ann stored')
    expect(await cyd).toBe('cyd stored')
    await badFailed
    expect(commits).toEqual([['ann'], ['cyd']])
    expect(failures()).toBe(1)
  })
})
