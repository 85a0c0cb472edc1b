// What the card proposes to confirm is what the message asked: a fraction or an exponent is not
// read as a count nine or a billion times off, where the team confirms in one tap.
import { expect, it } from 'vitest'
import { createOrderReader } from '#app/analysis/order-reading'
import { defaultFarmProducts, readProductList } from '#app/analysis/products'
import { orderFarmHours, orderSentAt } from '#tests/fixtures/order-messages'

const read = createOrderReader(readProductList(defaultFarmProducts))
const linesOf = (message: string) => read(message, orderSentAt, orderFarmHours)?.lines ?? []

it.each([
  ['1/3 dozen eggs please', { product: 'eggs', quantity: 3, unit: 'dozen' }],
  ['⅓ dozen eggs please', { product: 'eggs', quantity: 3, unit: 'dozen' }],
  ['1e9 jars of honey', { product: 'honey', quantity: 9, unit: 'jar' }],
])('does not read %s as %o', (message, misread) => {
  // Read right, left unplaced for the team, or no order: anything but the wrong count.
  expect(linesOf(message)).not.toContainEqual(misread)
})
