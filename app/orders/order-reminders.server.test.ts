import { join } from 'node:path'
import pino from 'pino'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { orderLines, orders, submissions } from '#app/data/schema'
import { keptVisitorMails } from '#app/replies/reply-delivery.server'
import { tempDatabasePath } from '#tests/support/server'
import { startOrderReminders, type ReminderSettings } from './order-reminders.server'

const opened: OpenDatabase[] = []
const started: Array<{ stop: () => void }> = []
afterEach(() => {
  for (const reminders of started.splice(0)) reminders.stop()
  for (const database of opened.splice(0)) database.close()
})

const settings: ReminderSettings = {
  farmName: 'Bramble Farm',
  timeZone: 'Europe/London',
  from: 'farm@bramble.example',
  address: 'Bramble Farm\nLong Lane',
  cancelHoursBefore: 6,
  link: (id) => `https://bramble.example/order?token=${id}.signed`,
}

/** Orders picked up on 5 December: Ana's (confirmed the week before), Ben's (cancelled), Cy's (confirmed on the 4th). */
function farm(path = tempDatabasePath()) {
  const database = openDatabase(path, join(import.meta.dirname, '../../drizzle'))
  opened.push(database)
  const { db } = database
  if (db.select().from(orders).all().length > 0) return database
  for (const [name, status, confirmedAt] of [
    ['Ana', 'confirmed', '2026-11-28T10:00:00Z'],
    ['Ben', 'cancelled', '2026-11-28T10:00:00Z'],
    ['Cy', 'confirmed', '2026-12-04T09:00:00Z'],
  ] as const) {
    const at = new Date(confirmedAt)
    const lead = db
      .insert(submissions)
      .values({ name, email: `${name.toLowerCase()}@example.com`, message: 'Two dozen eggs please', createdAt: at })
      .returning()
      .get()
    const order = db
      .insert(orders)
      .values({
        submissionId: lead.id,
        status,
        pickUpDate: '2026-12-05',
        pickUpFrom: '09:00',
        pickUpTo: '12:00',
        totalCents: 800,
        confirmedAt: at,
        changedAt: at,
      })
      .returning()
      .get()
    db.insert(orderLines)
      .values({ orderId: order.id, position: 0, product: 'eggs', quantity: 2, unit: 'dozen', priceCents: 800 })
      .run()
  }
  return database
}

async function remind(database: OpenDatabase, now: string, on: ReminderSettings | null = settings) {
  let queued = 0
  const reminders = startOrderReminders({
    db: database.db,
    writes: database.writes,
    visitorMails: { ...keptVisitorMails({ owed: () => {} }), queued: () => (queued += 1) },
    settings: () => on,
    now: () => Date.parse(now),
    log: pino({ level: 'silent' }),
  })
  started.push(reminders)
  await reminders.look()
  return queued
}

const reminded = (database: OpenDatabase) =>
  database.sqlite
    .prepare(
      'SELECT r.to_address, r.kind, r.request_key, r.text, d.kind AS owed FROM replies r JOIN deliveries d ON d.reply_id = r.id ORDER BY r.id',
    )
    .all() as Array<{ to_address: string; kind: string; request_key: string; text: string; owed: string }>

it('reminds each confirmed order the day before its pick-up, once, also after a restart', async () => {
  const path = tempDatabasePath()
  const database = farm(path)
  expect(await remind(database, '2026-12-04T08:00:00Z')).toBe(1)
  const [mail, ...more] = reminded(database)
  expect(more).toEqual([])
  expect(mail).toMatchObject({
    to_address: 'ana@example.com',
    kind: 'reply',
    request_key: 'order-reminder.1',
    owed: 'visitor-mail',
  })
  expect(mail!.text).toBe(
    [
      'Hello Ana,',
      '',
      'A reminder: your order from Bramble Farm is ready to pick up tomorrow, Saturday 5 December, 9:00–12:00.',
      '',
      '- 2 dozen eggs: €8',
      'Total €8, paid at pick-up.',
      '',
      'Where: Bramble Farm, Long Lane',
      '',
      'To see your order, or cancel it until Friday 4 December at 18:00: https://bramble.example/order?token=1.signed',
      '',
      'Bramble Farm',
    ].join('\n'),
  )
  // Looked at again, and after a restart: nothing more.
  expect(await remind(database, '2026-12-04T20:00:00Z')).toBe(0)
  database.close()
  opened.pop()
  const restarted = farm(path)
  expect(await remind(restarted, '2026-12-04T21:00:00Z')).toBe(0)
  expect(reminded(restarted)).toHaveLength(1)
})

it('reminds no one while the owner has not turned reminders on, nor before the day before', async () => {
  const database = farm()
  expect(await remind(database, '2026-12-04T08:00:00Z', null)).toBe(0)
  expect(await remind(database, '2026-12-03T23:59:00Z')).toBe(0)
  expect(reminded(database)).toEqual([])
})

it('after the cut-off, the reminder gives the order’s link without offering to cancel', async () => {
  const database = farm()
  await remind(database, '2026-12-04T19:00:00Z')
  expect(reminded(database)[0]!.text).toContain('To see your order: https://bramble.example/order?token=1.signed')
})
