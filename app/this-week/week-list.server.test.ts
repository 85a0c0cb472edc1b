import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { tempDatabasePath } from '#tests/support/server'
import { createWeekList } from './week-list.server'

let database: OpenDatabase
afterEach(() => database?.close())

it('shows the products set, what is for sale first, with the time of the last change; the editor has them all', async () => {
  database = openDatabase(tempDatabasePath(), join(import.meta.dirname, '../../drizzle'))
  let at = new Date('2027-06-01T08:00:00Z')
  let products = ['eggs', 'honey', 'apples', 'pears']
  const list = createWeekList({
    db: database.db,
    writes: database.writes,
    products: () => products,
    activity: { recordIn: () => {} },
    now: () => at,
  })
  const week = { priceCents: null, unit: '', note: '', readyFrom: null, stock: null }
  expect(list.shown()).toEqual({ items: [], changedAt: null })
  await list.save('eggs', { ...week, availability: 'sold-out' }, null)
  at = new Date('2027-06-02T08:00:00Z')
  await list.save('apples', { ...week, availability: 'available' }, null)
  await list.save('honey', { ...week, availability: 'coming-soon' }, null)
  const shown = list.shown()
  expect(shown.items.map((item) => item.product)).toEqual(['apples', 'honey', 'eggs'])
  expect(shown.changedAt).toEqual(new Date('2027-06-02T08:00:00Z'))
  expect(list.all().map((item) => [item.product, item.changedAt !== null])).toEqual([
    ['eggs', true],
    ['honey', true],
    ['apples', true],
    ['pears', false],
  ])
  // A product no longer in FARM_PRODUCTS is not shown, nor is it editable.
  products = ['eggs', 'honey']
  expect(list.shown().items.map((item) => item.product)).toEqual(['honey', 'eggs'])
  expect(list.item('apples')).toBeUndefined()
  expect(await list.save('honey', { ...week, availability: 'available' }, null)).toEqual({ nowForSale: true })
  expect(await list.save('honey', { ...week, availability: 'few-left' }, null)).toEqual({ nowForSale: false })
  // Counted down to nothing, it is sold out on the page; counted up again, it is for sale anew.
  await list.save('honey', { ...week, availability: 'available', stock: 0 }, null)
  expect(list.shown().items.find((item) => item.product === 'honey')?.availability).toBe('sold-out')
  expect(list.item('honey')?.availability).toBe('available')
  expect(await list.save('honey', { ...week, availability: 'available', stock: 4 }, null)).toEqual({ nowForSale: true })
})

it('saved from the editor: a count left as the page showed it keeps what orders left; one changed from a stale count is refused', async () => {
  database = openDatabase(tempDatabasePath(), join(import.meta.dirname, '../../drizzle'))
  const { db, sqlite } = database
  const list = createWeekList({
    db,
    writes: database.writes,
    products: () => ['eggs'],
    activity: { recordIn: () => {} },
  })
  const eggs = { availability: 'available', priceCents: 400, unit: 'a dozen', note: '', readyFrom: null } as const
  await list.save('eggs', { ...eggs, stock: 5 }, null, { stockShown: null })
  // An order took two dozen, and a third of a dozen, while the page showed 5.
  sqlite.prepare("UPDATE week_list SET stock = 2.666667 WHERE product = 'eggs'").run()
  await list.save('eggs', { ...eggs, note: 'Brown', stock: 5 }, null, { stockShown: 5 })
  expect(list.item('eggs')).toMatchObject({ note: 'Brown', stock: 2.666667 })
  expect(await list.save('eggs', { ...eggs, stock: 8 }, null, { stockShown: 5 })).toEqual({
    ok: false,
    status: 409,
    field: 'stock',
    error:
      'Orders changed what is left of eggs since this page was opened: 2.667 left now, not 5 left. Nothing was saved: check the count and save again.',
  })
  expect(list.item('eggs')).toMatchObject({ note: 'Brown', stock: 2.666667 })
  // From the page as it is now, the owner's count is saved.
  expect(await list.save('eggs', { ...eggs, stock: 8 }, null, { stockShown: 2.667 })).toEqual({ nowForSale: false })
  expect(list.item('eggs')?.stock).toBe(8)
})
