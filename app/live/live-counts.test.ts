import { describe, expect, it } from 'vitest'
import type { TagCount } from '#app/leads/lead'
import { newestReadings } from './live-counts'

const reading = (value: string, count: number, at: number): TagCount => ({ kind: 'status', value, count, at })

describe('newestReadings', () => {
  const loaded = [reading('new', 5, 100), reading('handled', 2, 100)]

  it('takes a count the link read after the loader', () => {
    expect(newestReadings(loaded, [reading('new', 4, 101)])).toEqual([
      reading('new', 4, 101),
      reading('handled', 2, 100),
    ])
  })

  it('keeps the loader’s count over an older reading that arrived late', () => {
    expect(newestReadings(loaded, [reading('new', 9, 99)])).toEqual(loaded)
  })

  it('of two readings in any order, the later one wins', () => {
    const answer = reading('new', 4, 102)
    const frame = reading('new', 5, 103)
    expect(newestReadings(loaded, [frame, answer])[0]).toEqual(frame)
    expect(newestReadings(loaded, [answer, frame])[0]).toEqual(frame)
  })

  it('adds a count the loader did not list only when it was read after the loader', () => {
    const product: TagCount = { kind: 'product', value: 'honey', count: 1, at: 101 }
    expect(newestReadings(loaded, [product])).toContainEqual(product)
    expect(newestReadings(loaded, [{ ...product, at: 99 }])).toEqual(loaded)
  })
})
