import { describe, expect, it } from 'vitest'
import { longDate, shortDate, shortDay, shortTime, shortTimeAndZone, weekdayName, zoneWords } from './dates'
import { knownTimeZone } from './time-zone'

const sundayNight = Date.parse('2026-11-22T23:30:00Z')

describe('dates as the owner reads them', () => {
  it('writes a moment on the farm’s clock, in words fixed here', () => {
    expect(shortTime(sundayNight, 'UTC')).toBe('22 Nov 2026, 23:30')
    expect(shortTime(sundayNight, 'Pacific/Auckland')).toBe('23 Nov 2026, 12:30')
    expect(shortTimeAndZone(sundayNight, 'Pacific/Auckland')).toBe('23 Nov 2026, 12:30 Auckland time')
    expect(shortTimeAndZone(sundayNight, 'UTC')).toBe('22 Nov 2026, 23:30 UTC')
    expect(shortDay(sundayNight, 'Pacific/Auckland')).toBe('23 Nov')
    expect(shortDate(sundayNight, 'America/Los_Angeles')).toBe('22 Nov 2026')
    expect(weekdayName(sundayNight, 'Pacific/Auckland')).toBe('Mon')
    expect(longDate(sundayNight, 'Pacific/Auckland')).toBe('23 November 2026')
    // Intl spells it 'Sept' in en-GB on some machines: never here.
    expect(shortDate(Date.parse('2026-09-05T12:00:00Z'), 'UTC')).toBe('5 Sep 2026')
  })

  it('names the clock by its place', () => {
    expect(zoneWords('UTC')).toBe('UTC')
    expect(zoneWords('Pacific/Auckland')).toBe('Auckland time')
    expect(zoneWords('America/Argentina/Buenos_Aires')).toBe('Buenos Aires time')
  })
})

describe('a time zone’s name', () => {
  it('is an IANA name this machine knows, spelled as Intl lists it', () => {
    expect(knownTimeZone('Pacific/Auckland')).toBe('Pacific/Auckland')
    expect(knownTimeZone(' pacific/auckland ')).toBe('Pacific/Auckland')
    expect(knownTimeZone('utc')).toBe('UTC')
    expect(knownTimeZone('Europe/London')).toBe('Europe/London')
  })

  it('is refused when it is none: an offset, a place Intl does not know, markup, too long', () => {
    for (const name of [
      '',
      '+13:00',
      'GMT+13:00',
      'Mars/Olympus_Mons',
      'Pacific/Auckland<script>',
      'Pacific/Auckland\nX-Header: 1',
      'Pacific/Auckland;DROP',
      '../../etc/passwd',
      `Pacific/${'A'.repeat(80)}`,
      'Ｐacific/Auckland',
    ]) {
      expect(knownTimeZone(name), name).toBeNull()
    }
  })
})
