// Eggs counted by the dozen on the list, ordered by the egg: a third of a dozen is not a number of
// three decimals. Whatever the rounding, the twelve eggs of a dozen are sold, and no more, and once
// they are all promised the page says sold out (issue 49: 'a product reaching zero shows sold out').
import { afterEach, expect, it } from 'vitest'
import type { OpenDatabase } from '#app/data/database.server'
import { createOrderConfirming } from '#app/orders/order-confirming.server'
import { priceLine } from '#app/orders/order-pricing'
import { readOrders } from '#app/orders/order-view.server'
import { createReplies } from '#app/replies/replies.server'
import { keptVisitorMails } from '#app/replies/reply-delivery.server'
import { createWeekList } from '#app/this-week/week-list.server'
import { servicesOverFreshDatabase } from '#tests/support/services'

let database: OpenDatabase | undefined
afterEach(() => {
  database?.close()
  database = undefined
})

const clock = new Date('2026-12-01T08:00:00.000Z')
const pickUp = { date: '2026-12-05', from: '09:00', to: '12:00' }

async function aDozenEggsLeft() {
  const built = servicesOverFreshDatabase(null, () => clock)
  database = built.database
  const { db, writes } = database
  const replies = createReplies({
    db,
    events: built.events,
    writes,
    farmName: () => 'Bramble Hill Farm',
    from: () => 'hello@bramble.example',
    visitorMails: keptVisitorMails({ owed: () => {} }),
    acknowledging: () => false,
    now: () => clock,
  })
  const list = createWeekList({ db, writes, products: () => ['eggs'], activity: { recordIn: () => {} } })
  await list.save(
    'eggs',
    { availability: 'available', readyFrom: null, note: '', priceCents: 600, unit: 'a dozen', stock: 1 },
    null,
  )
  const confirming = createOrderConfirming({
    db,
    writes,
    replies,
    list,
    timeZone: () => 'UTC',
    place: () => ({ address: 'Lane End', directions: '', hoursOn: () => null }),
    told: (orderId) => readOrders(db, [orderId])[0] ?? null,
    now: () => clock,
  })
  let leads = 0
  /** A new lead's order of `eggs` single eggs, confirmed by the team. */
  const confirmEggs = async (eggs: number) => {
    leads += 1
    const made = await built.service.submit({
      name: `Visitor ${leads}`,
      email: `visitor${leads}@example.com`,
      message: `${eggs} eggs please`,
    })
    if (!made.ok) throw new Error('lead not taken')
    return confirming.confirm({
      leadId: made.submission.id,
      asked: { lines: [{ product: 'eggs', quantity: eggs, unit: '' }], pickUp },
      text: 'Yours: {order link}',
      by: 1,
      siteUrl: 'https://bramble.example',
    })
  }
  return { list, confirmEggs }
}

it('sells the last four eggs of a dozen after eight were sold', async () => {
  const { list, confirmEggs } = await aDozenEggsLeft()
  expect(await confirmEggs(8)).toMatchObject({ ok: true })
  // 1 − 8/12 is kept as 0.333, and 4/12 = 0.3333… is then 'more than is left'.
  expect(await confirmEggs(4)).toMatchObject({ ok: true })
  expect(list.item('eggs')?.stock).toBe(0)
})

it('says sold out once three orders of four eggs took the dozen', async () => {
  const { list, confirmEggs } = await aDozenEggsLeft()
  for (let order = 0; order < 3; order += 1) expect(await confirmEggs(4)).toMatchObject({ ok: true })
  // Rounded at each take, 1 − 3 × 0.3333… is kept as 0.001: 'available, 0.001 left'.
  expect(list.item('eggs')?.stock).toBe(0)
  expect(list.shown().items.find((item) => item.product === 'eggs')?.availability).toBe('sold-out')
})

it('sells twelve single eggs from a dozen, then none', async () => {
  const { list, confirmEggs } = await aDozenEggsLeft()
  for (let order = 0; order < 12; order += 1) expect(await confirmEggs(1)).toMatchObject({ ok: true })
  expect(await confirmEggs(1)).toMatchObject({ ok: false, status: 409 })
  expect(list.shown().items.find((item) => item.product === 'eggs')?.availability).toBe('sold-out')
})

it('prices 1.005 kg at €1 a kg as €1.01, half a cent rounded up as the list rounds', () => {
  // 100 × 1.005 is 100.49999999999999 in binary floating point.
  const line = priceLine(
    { product: 'potatoes', quantity: 1.005, unit: 'kg' },
    {
      product: 'potatoes',
      availability: 'available',
      readyFrom: null,
      priceCents: 100,
      unit: 'a kg',
      note: '',
      stock: null,
    },
  )
  expect(line.priceCents).toBe(101)
})
