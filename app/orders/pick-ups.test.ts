import { describe, expect, it } from 'vitest'
import { linesWords, pickUpTimeWords, totalWords } from './pick-ups'
import { readOrdersQuery } from './orders-query'

describe('the pick-ups’ words', () => {
  it('says an order’s lines in one row', () => {
    expect(
      linesWords([
        { product: 'eggs', quantity: 2, unit: 'dozen', priceCents: 800 },
        { product: 'honey', quantity: 3, unit: 'jar', priceCents: null },
      ]),
    ).toBe('2 dozen eggs · 3 jars of honey')
  })

  it('says when and how much', () => {
    expect(pickUpTimeWords({ date: '2026-12-05', from: '09:00', to: '12:00' })).toBe('9:00–12:00')
    expect(pickUpTimeWords({ date: '2026-12-05', from: '14:30', to: null })).toBe('from 14:30')
    expect(pickUpTimeWords({ date: '2026-12-05', from: null, to: null })).toBe('any time')
    expect([totalWords(1350), totalWords(1700), totalWords(null)]).toEqual(['€13.50', '€17', '—'])
  })
})

describe('the API’s orders query', () => {
  const today = '2026-12-05'
  it('reads a range of real days, from today to a week on when not given', () => {
    expect(readOrdersQuery(new URLSearchParams(), today)).toEqual({
      ok: true,
      page: { from: '2026-12-05', to: '2026-12-11', after: 0, limit: 100 },
    })
    expect(readOrdersQuery(new URLSearchParams('from=2026-01-01&to=2026-12-31&after=7&limit=500'), today)).toEqual({
      ok: true,
      page: { from: '2026-01-01', to: '2026-12-31', after: 7, limit: 500 },
    })
  })

  it.each([
    ['from=2026-02-30', 'The "from" parameter must be a day written YYYY-MM-DD.'],
    ['from=5/12/2026', 'The "from" parameter must be a day written YYYY-MM-DD.'],
    ['from=2026-12-05T00:00', 'The "from" parameter must be a day written YYYY-MM-DD.'],
    ['to=', 'The "to" parameter must be a day written YYYY-MM-DD.'],
    ['from=2026-12-05&to=2026-12-04', 'The "to" day must not be before the "from" day.'],
    ['from=2026-01-01&to=2027-01-02', 'Ask for at most 366 days at once.'],
    ['from=2026-12-05&from=2026-12-06', 'The "from" parameter may be given only once.'],
    ['after=abc', 'The "after" parameter must be an order id.'],
    ['after=-1', 'The "after" parameter must be an order id.'],
    ['limit=0', 'The "limit" parameter must be a whole number from 1 to 500.'],
    ['limit=501', 'The "limit" parameter must be a whole number from 1 to 500.'],
    ['limit=1e2', 'The "limit" parameter must be a whole number from 1 to 500.'],
    ['limit= 5', 'The "limit" parameter must be a whole number from 1 to 500.'],
  ])('refuses %s', (query, error) => {
    expect(readOrdersQuery(new URLSearchParams(query), today)).toEqual({ ok: false, error })
  })
})
