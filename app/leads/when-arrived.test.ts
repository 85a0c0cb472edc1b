import { describe, expect, it } from 'vitest'
import { absoluteUtc, relativeArrival } from './when-arrived'

const now = new Date('2026-11-22T13:30:00.000Z')

describe('absoluteUtc', () => {
  it('is a fixed UTC date, the same everywhere', () => {
    expect(absoluteUtc('2026-11-22T09:05:00.000Z')).toBe('22 Nov 2026, 09:05 UTC')
    // en-GB spells one month with four letters.
    expect(absoluteUtc('2026-09-05T09:03:00.000Z')).toBe('5 Sept 2026, 09:03 UTC')
  })
})

describe('relativeArrival', () => {
  it.each([
    ['2026-11-22T13:29:30.000Z', 'UTC', 'just now'],
    ['2026-11-22T13:25:00.000Z', 'UTC', '5 min ago'],
    ['2026-11-22T12:31:00.000Z', 'UTC', '59 min ago'],
    ['2026-11-22T09:05:00.000Z', 'UTC', 'today 09:05'],
    ['2026-11-21T14:05:00.000Z', 'UTC', 'yesterday 14:05'],
    ['2026-11-21T14:05:00.000Z', 'Europe/Amsterdam', 'yesterday 15:05'],
    // Past midnight in Tokyo, so "today" there.
    ['2026-11-21T16:00:00.000Z', 'Asia/Tokyo', 'today 01:00'],
    ['2026-11-18T08:00:00.000Z', 'UTC', 'Wed 08:00'],
    ['2026-11-03T14:05:00.000Z', 'UTC', '3 Nov, 14:05'],
    ['2025-12-30T14:05:00.000Z', 'UTC', '30 Dec 2025, 14:05'],
  ])('%s in %s is %j', (iso, timeZone, text) => {
    expect(relativeArrival(iso, now, timeZone)).toBe(text)
  })
})
