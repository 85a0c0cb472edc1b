import { expect, it } from 'vitest'
import { priceOrder } from './order-pricing'
import { draftConfirmation, draftDecline, totalTold } from './order-drafts'

it('drafts the confirmation with the lines, the total, where and when, pay at pick-up, the link and the farm', () => {
  const { lines, totalCents } = priceOrder(
    [
      { product: 'eggs', quantity: 2, unit: 'dozen' },
      { product: 'honey', quantity: 1, unit: 'jar' },
    ],
    [
      {
        product: 'eggs',
        availability: 'available',
        readyFrom: null,
        priceCents: 400,
        unit: 'a dozen',
        note: '',
        stock: null,
      },
      {
        product: 'honey',
        availability: 'few-left',
        readyFrom: null,
        priceCents: 550,
        unit: 'a jar',
        note: '',
        stock: 4,
      },
    ],
  )
  expect(
    draftConfirmation({
      name: 'Ann',
      lines,
      totalCents,
      pickUp: { date: '2026-12-05', from: '09:00', to: '12:00' },
      place: { address: 'Bramble Hill Farm, Lane End', directions: 'The second gate after the church.' },
      farmName: 'Bramble Hill Farm',
    }),
  ).toBe(
    [
      'Hello Ann,',
      'Thank you for your order: it is put aside for you.',
      '- 2 dozen eggs: €8\n- 1 jar of honey: €5.50\nTotal: €13.50, to pay at pick-up.',
      'Pick-up: Saturday 5 December, 9:00–12:00\nBramble Hill Farm, Lane End\nThe second gate after the church.',
      'To see your order, or to cancel it: {order link}',
      'See you at the farm,\nBramble Hill Farm',
    ].join('\n\n'),
  )
})

it('drafts a decline with the reason, and for what is sold out the link to be told when it is ready', () => {
  const farm = { name: 'Ann', farmName: 'Bramble Hill Farm', pickUp: { date: '2026-12-05', from: null, to: null } }
  const tellMeUrl = (product: string) => `https://bramble.example/this-week/tell-me?product=${product}`
  expect(draftDecline({ ...farm, reason: 'sold-out', soldOut: ['eggs', 'honey'], tellMeUrl })).toBe(
    [
      'Hello Ann,',
      'Thank you for your order; we are sorry: eggs and honey are sold out this week, so we cannot take your order.',
      'To be told when eggs are ready: https://bramble.example/this-week/tell-me?product=eggs',
      'To be told when honey is ready: https://bramble.example/this-week/tell-me?product=honey',
      'With our best wishes,\nBramble Hill Farm',
    ].join('\n\n'),
  )
  expect(draftDecline({ ...farm, reason: 'not-that-day', soldOut: [], tellMeUrl: null })).toContain(
    'we cannot have your order ready for Saturday 5 December.',
  )
  expect(draftDecline({ ...farm, reason: 'sold-out', soldOut: ['eggs'], tellMeUrl: null })).not.toContain('tell-me')
})

it('reads the total a confirmation tells, as drafted or changed by hand; none when it tells none', () => {
  expect(totalTold('- 2 dozen eggs: €8\nTotal: €8, to pay at pick-up.')).toBe(800)
  expect(totalTold('Total: €12.50, to pay at pick-up.')).toBe(1250)
  expect(totalTold('To pay at pick-up, as priced on the day.')).toBeUndefined()
})
