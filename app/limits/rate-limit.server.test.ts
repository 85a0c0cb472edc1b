import { describe, expect, it } from 'vitest'
import { createRateLimit, visitorKey } from './rate-limit.server'

describe('createRateLimit', () => {
  it('allows the limit per window, then refuses with the seconds left, then allows again', () => {
    let time = 1_000_000
    const limit = createRateLimit({ limit: 2, windowMs: 60_000, now: () => time })
    expect(limit.take('203.0.113.1')).toEqual({ ok: true })
    expect(limit.take('203.0.113.1')).toEqual({ ok: true })
    time += 15_000
    expect(limit.take('203.0.113.1')).toEqual({ ok: false, retryAfterSeconds: 45 })
    expect(limit.take('203.0.113.2')).toEqual({ ok: true })
    time += 45_000
    expect(limit.take('203.0.113.1')).toEqual({ ok: true })
  })

  it('counts a whole IPv6 /64 and IPv4-mapped addresses as one visitor', () => {
    const limit = createRateLimit({ limit: 1, windowMs: 60_000 })
    expect(limit.take('2001:db8:1:2::1')).toEqual({ ok: true })
    expect(limit.take('2001:db8:1:2:ffff:eeee:dddd:cccc').ok).toBe(false)
    expect(limit.take('2001:db8:1:3::1').ok).toBe(true)
    expect(limit.take('::ffff:198.51.100.7').ok).toBe(true)
    expect(limit.take('198.51.100.7').ok).toBe(false)
  })
})

describe('visitorKey', () => {
  it.each([
    ['198.51.100.7', '198.51.100.7'],
    ['::ffff:198.51.100.7', '198.51.100.7'],
    ['2001:DB8:0001:0002:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s is %s', (address, key) => {
    expect(visitorKey(address)).toBe(key)
  })
})
