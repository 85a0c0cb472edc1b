import { join } from 'node:path'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { honeyQuestion } from '#tests/fixtures/honey-question'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { farmTexts, submissions } from '#app/data/schema'
import { createDeliveryEngine } from '#app/delivery/engine.server'
import { SubmissionEvents } from '#app/live/events.server'
import { createSubmissionsService } from '#app/submissions/service.server'
import { tempDatabasePath } from '#tests/support/server'
import { eq } from 'drizzle-orm'
import {
  acknowledgementKey,
  createAcknowledgements,
  mostAcknowledgementsPerSenderPerHour,
} from './acknowledgement.server'
import { keptVisitorMails } from './reply-delivery.server'

const migrationsFolder = join(import.meta.dirname, '../../drizzle')
const log = pino({ level: 'silent' })
let database: OpenDatabase | undefined
afterEach(() => database?.close())

/**
 * The site as it keeps leads, acknowledging each (VISITOR_ACK), over one SQLite file; `restart`
 * builds it again over the same file, as a new process would. Messages are read at once, or,
 * with `readable` false, kept unread and read again later (the path that missed its deadline).
 */
function site(path = tempDatabasePath()) {
  database = openDatabase(path, migrationsFolder)
  const state = { readable: true, now: new Date('2026-06-01T09:00:00.000Z') }
  const db = database.db
  const acknowledgements = createAcknowledgements({
    db,
    farmName: () => 'Willow Creek Farm',
    from: () => 'farm@farm.example',
    log,
    visitorMails: keptVisitorMails(createDeliveryEngine({ db, writes: database.writes, log })),
  })
  const service = createSubmissionsService({
    db,
    events: new SubmissionEvents(),
    analyse: async () =>
      state.readable ? { analysis: honeyQuestion, aiResponse: 'Read' } : { analysis: null, aiResponse: null },
    now: () => state.now,
    acknowledgements,
  })
  const acknowledged = () =>
    database!.sqlite
      .prepare("SELECT to_address FROM replies WHERE kind = 'acknowledgement' ORDER BY id")
      .pluck()
      .all() as string[]
  const later = (ms: number) => (state.now = new Date(state.now.getTime() + ms))
  return { path, service, state, acknowledged, later, db }
}

const lead = (n: number) => ({
  name: `Visitor ${n}`,
  email: `visitor${n}@example.com`,
  message: 'We would like to order two dozen eggs and a jar of honey for Saturday, if you have any left.',
})

describe('the acknowledgements’ caps', () => {
  it('hold for one sender whose messages are read again later: three an hour, not one per message', async () => {
    const { service, state, acknowledged, later } = site()
    state.readable = false
    for (let n = 1; n <= 12; n++) expect((await service.submit(lead(n), [], '203.0.113.9')).ok).toBe(true)
    expect(acknowledged()).toEqual([])
    later(15_000)
    state.readable = true
    expect(await service.readAgainDue()).toBe(12)
    expect(acknowledged()).toHaveLength(mostAcknowledgementsPerSenderPerHour)
    // Another sender's messages are still acknowledged.
    await service.submit(lead(13), [], '198.51.100.4')
    expect(acknowledged()).toHaveLength(mostAcknowledgementsPerSenderPerHour + 1)
  })

  it('count the same on both paths: read at once, then read again, one sender spends one share', async () => {
    const { service, state, acknowledged, later } = site()
    await service.submit(lead(1), [], '203.0.113.9')
    await service.submit(lead(2), [], '203.0.113.9')
    state.readable = false
    for (let n = 3; n <= 6; n++) await service.submit(lead(n), [], '203.0.113.9')
    later(15_000)
    state.readable = true
    await service.readAgainDue()
    expect(acknowledged()).toEqual(['visitor1@example.com', 'visitor2@example.com', 'visitor3@example.com'])
  })

  it('survive a restart: the sender’s hour and the address’s day are kept in the database', async () => {
    const first = site()
    for (let n = 1; n <= 3; n++) await first.service.submit(lead(n), [], '203.0.113.9')
    expect(first.acknowledged()).toHaveLength(3)
    database!.close()

    const again = site(first.path)
    again.state.now = new Date(first.state.now.getTime() + 60_000)
    await again.service.submit(lead(4), [], '203.0.113.9')
    await again.service.submit({ ...lead(1), name: 'Visitor 1 again' }, [], '198.51.100.4')
    expect(again.acknowledged()).toHaveLength(3)
    // An hour on, the sender has a share again; the day's mail to visitor 1 is still spent.
    again.later(60 * 60 * 1000)
    await again.service.submit(lead(5), [], '203.0.113.9')
    await again.service.submit({ ...lead(1), name: 'Visitor 1 again' }, [], '198.51.100.4')
    expect(again.acknowledged()).toEqual([
      'visitor1@example.com',
      'visitor2@example.com',
      'visitor3@example.com',
      'visitor5@example.com',
    ])
  })

  it('are not reset by deleting the lead: the mailbox’s day still counts', async () => {
    const { service, acknowledged, later, db } = site()
    await service.submit(lead(1), [], '203.0.113.9')
    expect(acknowledged()).toEqual(['visitor1@example.com'])
    db.delete(submissions).where(eq(submissions.id, 1)).run()
    later(60_000)
    await service.submit(lead(1), [], '198.51.100.4')
    expect(acknowledged()).toEqual([])
    later(24 * 60 * 60 * 1000)
    await service.submit(lead(1), [], '198.51.100.4')
    expect(acknowledged()).toEqual(['visitor1@example.com'])
  })

  it('keep no sender or mailbox in plain text, and no record past a day', async () => {
    const { service, later } = site()
    await service.submit(lead(1), [], '203.0.113.9')
    later(24 * 60 * 60 * 1000 + 1)
    await service.submit(lead(2), [], '203.0.113.9')
    const rows = database!.sqlite.prepare('SELECT * FROM unasked_mails').all()
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toMatch(/203\.0\.113|visitor2|example\.com/)
    const kept = database!.sqlite.prepare('SELECT sender_key FROM submissions').pluck().all()
    expect(JSON.stringify(kept)).not.toContain('203.0.113')
  })
})

describe('the acknowledgement’s words', () => {
  const textTo = (address: string) =>
    database!.sqlite.prepare('SELECT text FROM replies WHERE to_address = ?').pluck().get(address) as string

  it('are the site’s in the language the visitor wrote in, until the owner writes their own', async () => {
    const { service, db } = site()
    await service.submit(lead(1), [], '203.0.113.1', 'fr')
    await service.submit(lead(2), [], '203.0.113.2', 'nl')
    await service.submit(lead(3), [], '203.0.113.3')
    expect(textTo('visitor1@example.com')).toBe(
      'Merci d’avoir écrit à Willow Creek Farm. Nous avons bien reçu votre message et nous vous répondrons dès que possible.\n\nWillow Creek Farm',
    )
    expect(textTo('visitor2@example.com')).toBe(
      'Bedankt voor je bericht aan Willow Creek Farm. We hebben het ontvangen en antwoorden zo snel mogelijk.\n\nWillow Creek Farm',
    )
    expect(textTo('visitor3@example.com')).toBe(
      'Thank you for writing to Willow Creek Farm. We have your message, and we will answer it as soon as we can.\n\nWillow Creek Farm',
    )

    db.insert(farmTexts).values({ key: acknowledgementKey, text: 'Danke, {farm}!', updatedAt: new Date() }).run()
    await service.submit(lead(4), [], '203.0.113.4', 'fr')
    expect(textTo('visitor4@example.com')).toBe('Danke, Willow Creek Farm!')
  })
})
