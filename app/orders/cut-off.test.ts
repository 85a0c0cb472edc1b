import { expect, it } from 'vitest'
import { cancelUntil } from './cut-off'

const iso = (ms: number) => new Date(ms).toISOString()

it('is the day before at 18:00 on the farm’s clock by default (6 hours before the pick-up day)', () => {
  expect(iso(cancelUntil('2026-12-05', 6, 'UTC'))).toBe('2026-12-04T18:00:00.000Z')
  expect(iso(cancelUntil('2026-12-05', 6, 'Pacific/Auckland'))).toBe('2026-12-04T05:00:00.000Z')
  expect(iso(cancelUntil('2026-07-04', 6, 'America/New_York'))).toBe('2026-07-03T22:00:00.000Z')
})

it('reads the hours on the wall clock, so a clock change the night before does not move it', () => {
  // London goes to summer time at 01:00 on 29 March 2026: the day before is still on GMT.
  expect(iso(cancelUntil('2026-03-29', 6, 'Europe/London'))).toBe('2026-03-28T18:00:00.000Z')
  expect(iso(cancelUntil('2026-03-30', 6, 'Europe/London'))).toBe('2026-03-29T17:00:00.000Z')
  expect(iso(cancelUntil('2026-10-26', 30, 'Europe/London'))).toBe('2026-10-24T17:00:00.000Z')
})

it('with 0 hours is the pick-up day’s own midnight', () => {
  expect(iso(cancelUntil('2026-12-05', 0, 'Europe/Paris'))).toBe('2026-12-04T23:00:00.000Z')
})
