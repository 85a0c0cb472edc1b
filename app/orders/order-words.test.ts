import { expect, it } from 'vitest'
import { dayWords, lineWords, momentWords, moneyWords, pickUpWords } from './order-words'

it('says each line as a person would', () => {
  expect(lineWords({ product: 'eggs', quantity: 2, unit: 'dozen' })).toBe('2 dozen eggs')
  expect(lineWords({ product: 'eggs', quantity: 6, unit: '' })).toBe('6 eggs')
  expect(lineWords({ product: 'honey', quantity: 3, unit: 'jar' })).toBe('3 jars of honey')
  expect(lineWords({ product: 'honey', quantity: 1, unit: 'jar' })).toBe('1 jar of honey')
  expect(lineWords({ product: 'potatoes', quantity: 1.5, unit: 'kg' })).toBe('1.5 kg of potatoes')
  expect(lineWords({ product: 'strawberries', quantity: 2, unit: 'box' })).toBe('2 boxes of strawberries')
})

it('says the pick-up day, its hours, a moment and a price in fixed words', () => {
  expect(dayWords('2026-12-05')).toBe('Saturday 5 December 2026')
  expect(pickUpWords({ date: '2026-12-05', from: '09:00', to: '12:00' })).toBe('Saturday 5 December 2026, 9:00–12:00')
  expect(pickUpWords({ date: '2026-12-05', from: '14:30', to: null })).toBe('Saturday 5 December 2026, from 14:30')
  expect(pickUpWords({ date: '2026-12-05', from: null, to: null })).toBe('Saturday 5 December 2026')
  expect(momentWords(Date.parse('2026-12-04T05:00:00Z'), 'Pacific/Auckland')).toBe('Friday 4 December 2026 at 18:00')
  expect(moneyWords(1350)).toBe('€13.50')
})
