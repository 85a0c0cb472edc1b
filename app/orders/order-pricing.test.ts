import { describe, expect, it } from 'vitest'
import type { WeekProduct } from '#app/this-week/week'
import { inUnitsOf, priceOrder } from './order-pricing'
import { orderInOneLine, plainUnit } from './order-words'

const listed = (over: Partial<WeekProduct> & { product: string }): WeekProduct => ({
  availability: 'available',
  readyFrom: null,
  priceCents: null,
  unit: '',
  note: '',
  stock: null,
  ...over,
})

const list = [
  listed({ product: 'eggs', priceCents: 400, unit: 'a dozen', stock: 10 }),
  listed({ product: 'honey', priceCents: 550, unit: 'per jar' }),
  listed({ product: 'potatoes', priceCents: 200, unit: 'kg' }),
  listed({ product: 'apples', priceCents: 300, unit: 'a bag' }),
  listed({ product: 'cheese', availability: 'sold-out', priceCents: 700, unit: 'a round' }),
  listed({ product: 'pears', priceCents: 250, unit: 'a box', stock: 0 }),
  listed({ product: 'plums', priceCents: 300, unit: 'a box', stock: 2 }),
]

describe('pricing an order from this week’s list', () => {
  it('reads the list’s units as one word', () => {
    expect(['a dozen', 'dozens', 'per dozen', 'Dozen.'].map(plainUnit)).toEqual(['dozen', 'dozen', 'dozen', 'dozen'])
    expect(['per jar', 'jars', 'a box', 'boxes', 'each', '', 'kg', 'glass'].map(plainUnit)).toEqual([
      'jar',
      'jar',
      'box',
      'box',
      '',
      '',
      'kg',
      'glass',
    ])
    expect(inUnitsOf(6, '', 'a dozen')).toBe(0.5)
    expect(inUnitsOf(500, 'g', 'kg')).toBe(0.5)
    expect(inUnitsOf(2, 'jar', 'a dozen')).toBeNull()
  })

  it('prices each line in the list’s unit, with a total, and says plainly what it cannot price', () => {
    const twoDozen = priceOrder(
      [
        { product: 'eggs', quantity: 2, unit: 'dozen' },
        { product: 'honey', quantity: 3, unit: 'jar' },
        { product: 'eggs', quantity: 6, unit: '' },
        { product: 'potatoes', quantity: 1.5, unit: 'kg' },
      ],
      list,
    )
    expect(twoDozen.lines.map((line) => [line.priceCents, line.problem, line.note])).toEqual([
      [800, null, ''],
      [1650, null, ''],
      [200, null, ''],
      [300, null, ''],
    ])
    expect(twoDozen.totalCents).toBe(2950)
    const unpriced = priceOrder([{ product: 'apples', quantity: 2, unit: 'kg' }], list)
    expect(unpriced.lines[0]).toMatchObject({
      priceCents: null,
      problem: null,
      note: 'no price: the list sells it by the bag',
    })
    expect(unpriced.totalCents).toBeNull()
  })

  it('marks what is sold out, counted down to nothing, short, or not on the list', () => {
    const marked = priceOrder(
      [
        { product: 'cheese', quantity: 1, unit: 'round' },
        { product: 'pears', quantity: 1, unit: 'box' },
        { product: 'plums', quantity: 3, unit: 'box' },
        { product: 'eggs', quantity: 11, unit: 'dozen' },
        { product: 'flour', quantity: 1, unit: 'bag' },
      ],
      list,
    )
    expect(marked.lines.map((line) => [line.problem, line.note])).toEqual([
      ['sold-out', 'sold out'],
      ['sold-out', 'sold out'],
      ['not-enough', 'only 2 boxes left'],
      ['not-enough', 'only 10 dozen left'],
      ['not-on-list', 'not on the list'],
    ])
  })

  it('says the order in one line', () => {
    expect(
      orderInOneLine(
        [
          { product: 'eggs', quantity: 2, unit: 'dozen' },
          { product: 'honey', quantity: 3, unit: 'jar' },
          { product: 'eggs', quantity: 6, unit: '' },
          { product: 'honey', quantity: 1, unit: 'jar' },
          { product: 'apples', quantity: 2, unit: 'box' },
        ],
        { date: '2026-12-05', from: '09:00', to: '12:00' },
      ),
    ).toBe(
      '2 dozen eggs · 3 jars of honey · 6 eggs · 1 jar of honey · 2 boxes of apples · for Saturday 5 December, 9:00–12:00',
    )
    expect(orderInOneLine([{ product: 'potatoes', quantity: 1.5, unit: 'kg' }], null)).toBe(
      '1.5 kg of potatoes · no day said',
    )
  })
})
