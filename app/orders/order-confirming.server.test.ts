import { afterEach, expect, it } from 'vitest'
import type { OpenDatabase } from '#app/data/database.server'
import { weekList } from '#app/data/schema'
import { createReplies } from '#app/replies/replies.server'
import { keptVisitorMails } from '#app/replies/reply-delivery.server'
import { createWeekList } from '#app/this-week/week-list.server'
import { readRows } from '#tests/support/database'
import { servicesOverFreshDatabase } from '#tests/support/services'
import { createOrderConfirming } from './order-confirming.server'
import { readOrders } from './order-view.server'

let database: OpenDatabase
afterEach(() => database?.close())

const clock = new Date('2026-12-01T08:00:00.000Z')
// Open Saturdays 9 to 12, closed other days.
const place = () => ({
  address: 'Lane End',
  directions: '',
  hoursOn: (date: string) =>
    new Date(date).getUTCDay() === 6 ? { opens: '09:00', closes: '12:00' } : ('closed' as const),
})
const asked = {
  lines: [
    { product: 'eggs', quantity: 1, unit: 'dozen' },
    { product: 'honey', quantity: 2, unit: 'jar' },
  ],
  pickUp: { date: '2026-12-05', from: '09:00', to: '12:00' },
}

async function setUp() {
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
  const list = createWeekList({ db, writes, products: () => ['eggs', 'honey'], activity: { recordIn: () => {} } })
  const week = { availability: 'available', readyFrom: null, note: '' } as const
  await list.save('eggs', { ...week, priceCents: 400, unit: 'a dozen', stock: 1 }, null)
  await list.save('honey', { ...week, priceCents: 550, unit: 'a jar', stock: null }, null)
  const confirming = createOrderConfirming({
    db,
    writes,
    replies,
    list,
    timeZone: () => 'UTC',
    place,
    told: (orderId) => {
      const [order] = readOrders(db, [orderId])
      if (order) built.events.publish({ type: 'ORDER_CHANGED', order })
      return order ?? null
    },
    now: () => clock,
  })
  const lead = async (name: string) => {
    const made = await built.service.submit({
      name,
      email: `${name.toLowerCase()}@example.com`,
      message: 'A dozen eggs and two jars of honey',
    })
    return made.ok ? made.submission.id : 0
  }
  return { ...built, confirming, lead }
}

it('stores the order priced, takes the stock, records the event and owes the confirmation, all or nothing', async () => {
  const { confirming, lead, published } = await setUp()
  const [ann, bea] = [await lead('Ann'), await lead('Bea')]
  const confirm = (leadId: number) =>
    confirming.confirm({ leadId, asked, text: 'Yours: {order link}', by: 1, siteUrl: 'https://bramble.example' })
  // Both asked at once, for the last dozen: one has it, the other is told why.
  const [first, second] = await Promise.all([confirm(ann), confirm(bea)])
  expect(first).toMatchObject({
    ok: true,
    order: { leadId: ann, status: 'confirmed', totalCents: 1500, pickUp: asked.pickUp },
  })
  expect(second).toEqual({
    ok: false,
    status: 409,
    error: 'Eggs are sold out: change the order or decline it.',
  })
  expect(database.db.select({ stock: weekList.stock }).from(weekList).all()).toEqual([{ stock: 0 }, { stock: null }])
  expect(
    readRows(dbPath(), 'SELECT order_id, product, quantity, unit, stock_taken, price_cents FROM order_lines'),
  ).toEqual([
    { order_id: 1, product: 'eggs', quantity: 1, unit: 'dozen', stock_taken: 1, price_cents: 400 },
    { order_id: 1, product: 'honey', quantity: 2, unit: 'jar', stock_taken: null, price_cents: 1100 },
  ])
  expect(readRows(dbPath(), 'SELECT order_id, type, by FROM order_events')).toEqual([
    { order_id: 1, type: 'order.confirmed', by: 1 },
  ])
  const mails = readRows<{ submission_id: number; text: string }>(dbPath(), 'SELECT submission_id, text FROM replies')
  expect(mails).toHaveLength(1)
  expect(mails[0]!.submission_id).toBe(ann)
  expect(mails[0]!.text).toMatch(/^Yours: https:\/\/bramble\.example\/order\?token=1\.[A-Za-z0-9_-]{43}$/)
  expect(published.filter((event) => event.type === 'ORDER_CHANGED')).toHaveLength(1)
  // The same lead again: refused, nothing taken.
  expect(await confirm(ann)).toMatchObject({
    ok: false,
    status: 409,
    error: 'This order is already confirmed: the card shows it.',
  })
})

it('undoes the whole order when the mail cannot be stored', async () => {
  const { confirming, lead } = await setUp()
  const ann = await lead('Ann')
  const refused = await confirming.confirm({
    leadId: ann,
    asked,
    text: 'Yours\u0007 {order link}',
    by: 1,
    siteUrl: 'https://bramble.example',
  })
  expect(refused).toMatchObject({ ok: false })
  expect(readRows(dbPath(), 'SELECT count(*) AS n FROM orders')).toEqual([{ n: 0 }])
  expect(readRows(dbPath(), "SELECT stock FROM week_list WHERE product = 'eggs'")).toEqual([{ stock: 1 }])
})

const dbPath = () => database.sqlite.name

it('takes no stock below zero even when the list read said there was some (another process took it)', async () => {
  const { lead, database: db } = await setUp()
  const stale = createOrderConfirming({
    db: db.db,
    writes: db.writes,
    replies: { queueIn: () => ({ ok: true, replyId: 0 }), told: () => null },
    list: {
      all: () => [
        {
          product: 'eggs',
          availability: 'available',
          readyFrom: null,
          priceCents: 400,
          unit: 'a dozen',
          note: '',
          stock: 5,
          changedAt: null,
        },
        {
          product: 'honey',
          availability: 'available',
          readyFrom: null,
          priceCents: 550,
          unit: 'a jar',
          note: '',
          stock: null,
          changedAt: null,
        },
      ],
    },
    timeZone: () => 'UTC',
    place,
    told: () => null,
  })
  const ann = await lead('Ann')
  const two = { ...asked, lines: [{ product: 'eggs', quantity: 2, unit: 'dozen' }] }
  expect(
    await stale.confirm({ leadId: ann, asked: two, text: 'Yours', by: 1, siteUrl: 'https://bramble.example' }),
  ).toEqual({
    ok: false,
    status: 409,
    error: '2 dozen eggs: not enough left, someone took it first. Change the order or decline it.',
  })
  expect(readRows(dbPath(), "SELECT stock FROM week_list WHERE product = 'eggs'")).toEqual([{ stock: 1 }])
  expect(readRows(dbPath(), 'SELECT count(*) AS n FROM orders')).toEqual([{ n: 0 }])
})

it('drafts the confirmation in the day’s opening hours when no time was said, and says when the farm is closed', async () => {
  const { confirming, lead } = await setUp()
  const ann = await lead('Ann')
  const saturday = confirming.draft(ann, { ...asked, pickUp: { date: '2026-12-05', from: null, to: null } }, 'Bramble')
  expect(saturday).toMatchObject({
    ok: true,
    draft: { pickUp: { date: '2026-12-05', from: '09:00', to: '12:00' }, closed: false, totalCents: 1500 },
  })
  expect(saturday.ok && saturday.draft.text).toContain('Pick-up: Saturday 5 December, 9:00–12:00\nLane End')
  const sunday = confirming.draft(ann, { ...asked, pickUp: { date: '2026-12-06', from: null, to: null } }, 'Bramble')
  expect(sunday).toMatchObject({ ok: true, draft: { pickUp: { from: null, to: null }, closed: true } })
  expect(confirming.draft(9999, asked, 'Bramble')).toMatchObject({ ok: false, status: 404 })
})

it('refuses a total other than the draft’s, or than the confirmation says, asking to draft again; nothing kept', async () => {
  const { confirming, lead } = await setUp()
  const ann = await lead('Ann')
  const confirm = (text: string, draftedTotalCents?: number | null) =>
    confirming.confirm({ leadId: ann, asked, text, by: 1, siteUrl: 'https://bramble.example', draftedTotalCents })
  // The list's eggs were €4 when the draft was read: the order came to €13 then, €15 now.
  expect(await confirm('Yours: {order link}', 1300)).toEqual({
    ok: false,
    status: 409,
    error:
      'This week’s prices changed since the confirmation was drafted: the order comes to €15 now, not €13. Nothing was sent: draft the confirmation again.',
  })
  expect(await confirm('Total: €13, to pay at pick-up. {order link}')).toEqual({
    ok: false,
    status: 409,
    error:
      'The confirmation says Total: €13, but the order comes to €15 at this week’s prices. Nothing was sent: draft the confirmation again.',
  })
  expect(readRows(dbPath(), 'SELECT count(*) AS n FROM orders')).toEqual([{ n: 0 }])
  expect(await confirm('Total: €15, to pay at pick-up. {order link}', 1500)).toMatchObject({ ok: true })
})
