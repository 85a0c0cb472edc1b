import { describe, expect, it } from 'vitest'
import { absoluteTime, relativeArrival } from './when-arrived'

const now = new Date('2026-11-22T13:30:00.000Z')

describe('absoluteTime', () => {
  it('is the date and time on the farm’s clock, in words fixed here, the same everywhere', () => {
    expect(absoluteTime('2026-11-22T09:05:00.000Z', 'UTC')).toBe('22 Nov 2026, 09:05')
    // Intl would spell it 'Sept' on one machine and 'Sep' on another.
    expect(absoluteTime('2026-09-05T09:03:00.000Z', 'UTC')).toBe('5 Sep 2026, 09:03')
    // Sunday 23:30 UTC is Monday lunchtime in Auckland (summer time, UTC+13).
    expect(absoluteTime('2026-11-22T23:30:00.000Z', 'Pacific/Auckland')).toBe('23 Nov 2026, 12:30')
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
    // Already Monday in Auckland at 13:30 UTC on Sunday: Sunday's 09:00 UTC was Sunday 22:00 there.
    ['2026-11-22T09:00:00.000Z', 'Pacific/Auckland', 'yesterday 22:00'],
    ['2026-11-18T08:00:00.000Z', 'UTC', 'Wed 08:00'],
    ['2026-11-03T14:05:00.000Z', 'UTC', '3 Nov, 14:05'],
    ['2025-12-30T14:05:00.000Z', 'UTC', '30 Dec 2025, 14:05'],
    // The last day of 2025 in UTC is the first of 2026 in Auckland: this year's, without its year.
    ['2025-12-31T14:05:00.000Z', 'Pacific/Auckland', '1 Jan, 03:05'],
  ])('%s in %s is %j', (iso, timeZone, text) => {
    expect(relativeArrival(iso, now, timeZone)).toBe(text)
  })
})
