import { describe, expect, it } from 'vitest'
import { dayStart, farmMondays, offsetAt, wallClock, weekOf } from './farm-clock'

const hourMs = 60 * 60 * 1000
const at = (iso: string) => Date.parse(iso)

describe('the farm’s clock', () => {
  it('reads a moment on the farm’s wall clock: Sunday 23:30 UTC is Monday lunchtime in Auckland', () => {
    const sundayNight = at('2026-11-22T23:30:00Z')
    expect(wallClock(sundayNight, 'UTC')).toMatchObject({ year: 2026, month: 11, day: 22, hour: 23, weekday: 6 })
    expect(wallClock(sundayNight, 'Pacific/Auckland')).toMatchObject({ day: 23, hour: 12, minute: 30, weekday: 0 })
    expect(offsetAt(sundayNight, 'Pacific/Auckland')).toBe(13 * hourMs)
    // Winter in Auckland: UTC+12.
    expect(offsetAt(at('2026-06-01T00:00:00Z'), 'Pacific/Auckland')).toBe(12 * hourMs)
    expect(offsetAt(at('2026-06-01T00:00:00Z'), 'America/St_Johns')).toBe(-2.5 * hourMs)
  })

  it('starts a week on Monday, 00:00 on the farm’s clock', () => {
    expect(weekOf(at('2026-11-25T12:00:00Z'), 'UTC')).toBe(at('2026-11-23T00:00:00Z'))
    expect(weekOf(at('2026-11-23T00:00:00Z'), 'UTC')).toBe(at('2026-11-23T00:00:00Z'))
    expect(weekOf(at('2026-11-22T23:59:00Z'), 'UTC')).toBe(at('2026-11-16T00:00:00Z'))
    expect(weekOf(at('2027-01-01T00:00:00Z'), 'UTC')).toBe(at('2026-12-28T00:00:00Z'))
    // Monday 23 Nov, 00:00 in Auckland is Sunday 11:00 UTC: the lead of 23:30 UTC is in that week.
    expect(weekOf(at('2026-11-22T23:30:00Z'), 'Pacific/Auckland')).toBe(at('2026-11-22T11:00:00Z'))
    expect(weekOf(at('2026-11-22T10:59:59Z'), 'Pacific/Auckland')).toBe(at('2026-11-15T11:00:00Z'))
    expect(weekOf(at('2026-11-23T03:00:00Z'), 'America/Los_Angeles')).toBe(at('2026-11-16T08:00:00Z'))
  })

  it('keeps a week that the clocks change in from Monday midnight to Monday midnight, an hour short or long', () => {
    // London goes to summer time on Sunday 29 March 2026: that week is 167 hours, the next starts at 23:00 UTC.
    const before = weekOf(at('2026-03-25T12:00:00Z'), 'Europe/London')
    const after = weekOf(at('2026-04-01T12:00:00Z'), 'Europe/London')
    expect([before, after]).toEqual([at('2026-03-23T00:00:00Z'), at('2026-03-29T23:00:00Z')])
    expect(after - before).toBe(167 * hourMs)
    // Auckland leaves summer time on Sunday 5 April 2026: 169 hours.
    const autumn = weekOf(at('2026-04-01T00:00:00Z'), 'Pacific/Auckland')
    expect(autumn).toBe(at('2026-03-29T11:00:00Z'))
    expect(weekOf(at('2026-04-08T00:00:00Z'), 'Pacific/Auckland') - autumn).toBe(169 * hourMs)
  })

  it('starts a day whose midnight the clock skips when the clock first reads that day', () => {
    // Santiago moves its clocks from 00:00 to 01:00 on Sunday 6 September 2026 (UTC−4 to UTC−3).
    const sunday = Date.UTC(2026, 8, 6) / (24 * hourMs)
    const start = dayStart(sunday, 'America/Santiago')
    expect(start).toBe(at('2026-09-06T04:00:00Z'))
    expect(wallClock(start, 'America/Santiago')).toMatchObject({ day: 6, hour: 1, minute: 0 })
    expect(wallClock(start - 1, 'America/Santiago')).toMatchObject({ day: 5, hour: 23 })
    // Back from 00:00 to 23:00 on Saturday 4 April 2026: Sunday starts once, when midnight comes again.
    expect(dayStart(Date.UTC(2026, 3, 5) / (24 * hourMs), 'America/Santiago')).toBe(at('2026-04-05T04:00:00Z'))
  })

  it('lists the farm’s Mondays from the one before 1970 to 2200, each a Monday at midnight there', () => {
    const utc = farmMondays('UTC')
    expect(utc[0]).toBe(at('1969-12-29T00:00:00Z'))
    expect(utc.at(-1)).toBe(at('2199-12-30T00:00:00Z'))
    const auckland = farmMondays('Pacific/Auckland')
    expect(auckland).toHaveLength(utc.length)
    for (const monday of auckland.filter((_, index) => index % 97 === 0)) {
      expect(wallClock(monday, 'Pacific/Auckland')).toMatchObject({ weekday: 0, hour: 0, minute: 0 })
      expect(weekOf(monday, 'Pacific/Auckland')).toBe(monday)
    }
  })
})
