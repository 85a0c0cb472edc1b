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
  expect(dayWords('2026-12-05')).toBe('Saturday 5 December')
  expect(pickUpWords({ date: '2026-12-05', from: '09:00', to: '12:00' })).toBe('Saturday 5 December, 9:00–12:00')
  expect(pickUpWords({ date: '2026-12-05', from: '14:30', to: null })).toBe('Saturday 5 December, from 14:30')
  expect(pickUpWords({ date: '2026-12-05', from: null, to: null })).toBe('Saturday 5 December')
  expect(momentWords(Date.parse('2026-12-04T05:00:00Z'), 'Pacific/Auckland')).toBe('Friday 4 December at 18:00')
  expect(moneyWords(1350)).toBe('€13.50')
})

it('says a whole price as the week’s list does, without cents', () => {
  expect(moneyWords(800)).toBe('€8')
})

it('says a sum of fractions as people write it, not as floating point adds it', () => {
  expect(lineWords({ product: 'eggs', quantity: 0.1 + 0.2, unit: 'dozen' })).toBe('0.3 dozen eggs')
  expect(lineWords({ product: 'tomatoes', quantity: 2, unit: 'box' })).toBe('2 boxes of tomatoes')
})
