import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { tempDatabasePath } from '#tests/support/server'
import { createUpdates } from './updates.server'

/** The team's first person, the owner (drizzle/0016). */
const owner = 1

let database: OpenDatabase
afterEach(() => database?.close())

function setUp() {
  database = openDatabase(tempDatabasePath(), join(import.meta.dirname, '../../drizzle'))
  const { sqlite } = database
  const lead = sqlite.prepare(
    'INSERT INTO submissions (name, email, message, analysis, created_at, spam_reasons) VALUES (?, ?, ?, ?, 1, ?)',
  )
  const subscriber = sqlite.prepare(
    `INSERT INTO subscribers (email, address_key, name, status, added_by, created_at) VALUES (?, ?, '', ?, 'owner', 1)`,
  )
  const says = (email: string, products: string[], intents: string[], spam: string | null = null) =>
    lead.run('x', email, 'x', JSON.stringify({ products, intents }), spam)
  const subscribe = (email: string, status = 'subscribed') => subscriber.run(email, email.toLowerCase(), status)
  let queued = 0
  const updates = createUpdates({
    db: database.db,
    writes: database.writes,
    products: () => ['eggs', 'honey'],
    queued: () => queued++,
  })
  return { updates, says, subscribe, queued: () => queued }
}

const size = (answer: { ok: boolean; recipients?: number }) => (answer.ok ? answer.recipients : null)

describe('an update’s audience', () => {
  it('reaches subscribers with one kept submission tagged with a chosen product and a chosen intent', () => {
    const { updates, says, subscribe } = setUp()
    says('ann@example.com', ['eggs'], ['order'])
    says('BEN@example.com', ['eggs'], ['feedback'])
    says('ben@example.com', ['honey'], ['order'])
    says('cy@example.com', ['eggs'], ['order'], '["links"]')
    says('dee@example.com', ['eggs'], ['order'])
    for (const email of ['Ann@Example.com', 'ben@example.com', 'cy@example.com', 'eve@example.com']) subscribe(email)
    subscribe('dee@example.com', 'unsubscribed')
    expect(size(updates.audienceSize({ products: [], intents: [] }))).toBe(4)
    // Ann in any case of letters; not Cy, whose eggs were spam; not Dee, who left.
    expect(size(updates.audienceSize({ products: ['eggs'], intents: [] }))).toBe(2)
    // Ben asked about eggs in one message and ordered in another: not eggs-and-order.
    expect(size(updates.audienceSize({ products: ['eggs'], intents: ['order'] }))).toBe(1)
    expect(size(updates.audienceSize({ products: ['eggs', 'honey'], intents: ['order'] }))).toBe(2)
    expect(updates.audienceSize({ products: ['caviar'], intents: [] })).toMatchObject({ ok: false, status: 400 })
  })

  it('finds each subscriber’s submissions through the index on their lower-case address', () => {
    const { says, subscribe } = setUp()
    says('ann@example.com', ['eggs'], ['order'])
    subscribe('ann@example.com')
    const plan = database.sqlite
      .prepare(
        `EXPLAIN QUERY PLAN SELECT count(*) FROM subscribers s WHERE s.status = 'subscribed' AND EXISTS (SELECT 1 FROM submissions m
         WHERE lower(m.email) = lower(s.email) AND m.spam_reasons IS NULL
         AND EXISTS (SELECT 1 FROM submission_tags t WHERE t.submission_id = m.id AND t.kind = 'product' AND t.value IN ('eggs')))`,
      )
      .all()
      .map((step) => (step as { detail: string }).detail)
    expect(plan.join('\n')).toMatch(/SEARCH m (EXISTS )?USING INDEX submissions_by_email/)
  })

  it('queues one mail per recipient with the update, in one go, and the same key again queues nothing', async () => {
    const { updates, says, subscribe, queued } = setUp()
    says('ann@example.com', ['eggs'], ['order'])
    subscribe('ann@example.com')
    subscribe('ben@example.com')
    const input = {
      subject: 'Eggs',
      text: 'Hello {name}',
      audience: { products: [], intents: [] },
      requestKey: 'key-00001',
    }
    const first = await updates.send({ ...input, by: owner })
    const again = await updates.send({ ...input, by: owner })
    expect(first).toMatchObject({ ok: true, repeated: false, update: { recipients: 2 } })
    expect(again).toMatchObject({ ok: true, repeated: true, update: { recipients: 2 } })
    expect(database.sqlite.prepare("SELECT count(*) AS n FROM deliveries WHERE kind = 'update-mail'").get()).toEqual({
      n: 2,
    })
    expect(queued()).toBe(1)
    expect(database.sqlite.prepare('SELECT sent_by FROM updates').pluck().all()).toEqual([owner])
    const nobody = await updates.send({
      by: owner,
      ...input,
      requestKey: 'key-00002',
      audience: { products: ['honey'], intents: [] },
    })
    expect(nobody).toMatchObject({ ok: false, status: 400 })
    expect(database.sqlite.prepare('SELECT count(*) AS n FROM updates').get()).toEqual({ n: 1 })
  })
})
