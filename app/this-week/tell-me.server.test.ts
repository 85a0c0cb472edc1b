import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import type { UpdatesDesk } from '#app/updates/update-requests.server'
import { tempDatabasePath } from '#tests/support/server'
import { weekAtTheFarm } from './week-at-the-farm.server'

let database: OpenDatabase
afterEach(() => database?.close())

function setUp() {
  database = openDatabase(tempDatabasePath(), join(import.meta.dirname, '../../drizzle'))
  const { sqlite } = database
  let at = new Date('2027-06-05T09:00:00Z')
  const week = weekAtTheFarm({
    db: database.db,
    writes: database.writes,
    products: () => ['strawberries', 'eggs'],
    activity: { recordIn: () => {} },
    farm: () => ({ name: 'Bramble Hill Farm', timeZone: 'Europe/London' }),
    now: () => at,
  })
  const subscribe = (email: string) =>
    sqlite
      .prepare(
        `INSERT INTO subscribers (email, address_key, name, status, added_by, created_at) VALUES (?, ?, '', 'subscribed', 'owner', 1)`,
      )
      .run(email, email)
  const waits = (email: string, product = 'strawberries') =>
    sqlite
      .prepare('INSERT INTO product_waits (product, email, address_key, asked_at) VALUES (?, ?, ?, 1)')
      .run(product, email, email)
  const asksAbout = (email: string, product: string) =>
    sqlite
      .prepare('INSERT INTO submissions (name, email, message, analysis, created_at) VALUES (?, ?, ?, ?, 1)')
      .run('x', email, 'x', JSON.stringify({ products: [product], intents: ['order'] }))
  let woken = 0
  const desk = { updates: { wakeSender: () => woken++ } } as unknown as UpdatesDesk
  const toldOf = (updateId: number) =>
    sqlite
      .prepare(
        'SELECT s.email FROM deliveries d JOIN subscribers s ON s.id = d.subscriber_id WHERE d.update_id = ? ORDER BY s.email',
      )
      .pluck()
      .all(updateId)
  const setWeek = (availability: 'available' | 'coming-soon') =>
    week.list.save(
      'strawberries',
      { availability, priceCents: 500, unit: 'a punnet', note: '', readyFrom: null, stock: null },
      null,
    )
  return {
    week,
    desk,
    subscribe,
    waits,
    asksAbout,
    toldOf,
    setWeek,
    woken: () => woken,
    later: (to: string) => void (at = new Date(to)),
  }
}

const news = { product: 'strawberries', subject: 'Strawberries are ready', text: 'Come and pick.', by: null }

describe('the news of a product ready', () => {
  it('is proposed once it is for sale, counting those waiting apart from those who asked about it', async () => {
    const { week, subscribe, waits, asksAbout, setWeek } = setUp()
    for (const email of ['ann@example.com', 'bob@example.com', 'cat@example.com', 'dan@example.com']) subscribe(email)
    waits('ann@example.com')
    waits('bob@example.com')
    asksAbout('bob@example.com', 'strawberries')
    asksAbout('cat@example.com', 'strawberries')
    asksAbout('dan@example.com', 'eggs')
    // Waiting, not confirmed: not counted.
    waits('eve@example.com')
    await setWeek('coming-soon')
    expect(week.tellMe.proposals()).toEqual([])
    expect(await setWeek('available')).toEqual({ nowForSale: true })
    expect(week.tellMe.proposals()).toEqual([
      {
        product: 'strawberries',
        waiting: 2,
        askedAbout: 1,
        subject: 'Strawberries are ready at Bramble Hill Farm',
        text: 'Strawberries are ready: €5 a punnet.\n\nYou asked us to tell you. See you at the farm,\n\nBramble Hill Farm',
      },
    ])
  })

  it('goes only to those waiting, unless the owner adds those who asked; each once a season', async () => {
    const { week, desk, subscribe, waits, asksAbout, toldOf, setWeek, woken, later } = setUp()
    for (const email of ['ann@example.com', 'cat@example.com', 'fay@example.com']) subscribe(email)
    waits('ann@example.com')
    asksAbout('cat@example.com', 'strawberries')
    await setWeek('available')
    const first = await week.tellMe.send(desk, { ...news, alsoAsked: false })
    expect(first).toMatchObject({ ok: true, recipients: 1 })
    expect(toldOf((first as { updateId: number }).updateId)).toEqual(['ann@example.com'])
    expect(woken()).toBe(1)
    expect(week.tellMe.proposals()).toMatchObject([{ waiting: 0, askedAbout: 1 }])
    const second = await week.tellMe.send(desk, { ...news, alsoAsked: true })
    expect(toldOf((second as { updateId: number }).updateId)).toEqual(['cat@example.com'])
    expect(await week.tellMe.send(desk, { ...news, alsoAsked: true })).toMatchObject({ ok: false, status: 409 })
    // Someone new waits: proposed and told alone.
    waits('fay@example.com')
    const third = await week.tellMe.send(desk, { ...news, alsoAsked: true })
    expect(toldOf((third as { updateId: number }).updateId)).toEqual(['fay@example.com'])
    // Next season, on the farm's calendar, they may be told again.
    later('2027-12-31T23:30:00Z')
    expect(await week.tellMe.send(desk, { ...news, alsoAsked: false })).toMatchObject({ ok: false, status: 409 })
    later('2028-06-01T09:00:00Z')
    const nextYear = await week.tellMe.send(desk, { ...news, alsoAsked: false })
    expect(toldOf((nextYear as { updateId: number }).updateId)).toEqual(['ann@example.com', 'fay@example.com'])
  })

  it('is refused while the product is not for sale, or with words an update cannot have', async () => {
    const { week, desk, subscribe, waits, setWeek } = setUp()
    subscribe('ann@example.com')
    waits('ann@example.com')
    expect(await week.tellMe.send(desk, { ...news, alsoAsked: false })).toMatchObject({ ok: false, status: 400 })
    await setWeek('coming-soon')
    expect(await week.tellMe.send(desk, { ...news, alsoAsked: false })).toMatchObject({ ok: false, status: 400 })
    await setWeek('available')
    expect(await week.tellMe.send(desk, { ...news, subject: '', alsoAsked: false })).toMatchObject({
      ok: false,
      status: 400,
    })
  })
})
