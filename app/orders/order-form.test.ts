import { expect, it } from 'vitest'
import { readOrderForm, type OrderFields } from './order-form'

const known = ['eggs', 'honey']
const fields = (over: Partial<OrderFields> = {}): OrderFields => ({
  products: ['eggs', 'honey', ''],
  quantities: ['2', '1,5', ''],
  units: ['dozen', 'jars', ''],
  date: '2026-12-05',
  from: '09:00',
  to: '12:00',
  ...over,
})

it('reads the card’s lines and pick-up, leaving out the spare line and lines set to 0', () => {
  expect(readOrderForm(fields(), known, '2026-12-01')).toEqual({
    ok: true,
    value: {
      lines: [
        { product: 'eggs', quantity: 2, unit: 'dozen' },
        { product: 'honey', quantity: 1.5, unit: 'jar' },
      ],
      pickUp: { date: '2026-12-05', from: '09:00', to: '12:00' },
    },
  })
  const one = readOrderForm(fields({ quantities: ['0', '1', ''], from: '', to: '' }), known, '2026-12-05')
  expect(one).toMatchObject({ ok: true, value: { lines: [{ product: 'honey' }], pickUp: { from: null, to: null } } })
})

it('refuses, in words, forged and odd fields', () => {
  const refused = (over: Partial<OrderFields>, today = '2026-12-01') => {
    const read = readOrderForm(fields(over), known, today)
    return read.ok ? 'read' : read.error
  }
  expect(refused({ products: ['flour', 'honey', ''] })).toBe('Choose each line’s product from this week’s list.')
  for (const quantity of ['-1', 'NaN', 'Infinity', '1e3', '1001', '99999999', '0x10', '2.12345', ' ']) {
    expect(refused({ quantities: [quantity, '1', ''], products: ['eggs', 'honey', ''] })).toMatch(
      /^A quantity is a number such as 2 or 1.5, at most 1000\.$|^Choose each line/,
    )
  }
  expect(refused({ units: ['dozen<script>', 'jar', ''] })).toMatch(/^A unit is a word/)
  expect(refused({ quantities: ['0', '0', ''] })).toBe('An order has at least one line: to refuse it, decline it.')
  expect(refused({ products: ['eggs'] })).toMatch(/^An order has at most 20 lines/)
  expect(
    refused({ products: Array(30).fill('eggs'), quantities: Array(30).fill('1'), units: Array(30).fill('') }),
  ).toMatch(/^An order has at most 20 lines/)
  expect(refused({ date: '2026-02-30' })).toBe('The pick-up day is a day such as 2026-12-05.')
  expect(refused({}, '2026-12-06')).toBe('That pick-up day has passed: choose today or a day ahead.')
  expect(refused({ date: '2028-01-01' })).toBe('A pick-up day is within the year ahead.')
  expect(refused({ from: '9am' })).toBe('A pick-up time is written as 09:00.')
  expect(refused({ from: '12:00', to: '09:00' })).toMatch(/^The pick-up ends after it starts/)
})
