import { join } from 'node:path'
import Sqlite from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openDatabase, type OpenDatabase } from '../db/database.server'
import { tempDatabasePath } from '../../tests/support/server'
import { SubmissionEvents, type SubmissionEvent } from './events.server'
import type { InboxPage } from './inbox-query'
import { createSubmissionsService, type SubmissionsService } from './service.server'
import type { Analysis, Intent } from './analysis/analysis'
import { honeyQuestion } from './analysis/fixtures/honey-question'

const migrationsFolder = join(import.meta.dirname, '../../drizzle')
const form = { name: 'Ann', email: 'ann@example.com', message: 'Any honey left?' }
const analysis = honeyQuestion
let database: OpenDatabase

let clock: Date

function setUp(reading: Analysis = analysis) {
  database = openDatabase(tempDatabasePath(), migrationsFolder)
  const events = new SubmissionEvents()
  const published: SubmissionEvent[] = []
  events.subscribe((event) => published.push(event))
  clock = new Date('2026-05-01T08:00:00.000Z')
  const service = createSubmissionsService({
    db: database.db,
    events,
    analyse: async ({ message }) => ({ analysis: reading, aiResponse: `Read: ${message}` }),
    now: () => clock,
  })
  return { service, published }
}

afterEach(() => database?.close())

/** One page of a view, as big as any test needs. */
function listed(service: SubmissionsService, page: Partial<InboxPage> = {}) {
  return service.list({ spam: false, limit: 100, ...page }).submissions
}

describe('the submissions service', () => {
  it('stores a valid submission, then publishes it with its id as the event id', async () => {
    const { service, published } = setUp()
    const result = await service.submit(form)
    expect(result).toEqual({
      ok: true,
      submission: {
        id: 1,
        ...form,
        aiResponse: 'Read: Any honey left?',
        analysis,
        createdAt: '2026-05-01T08:00:00.000Z',
        spam: null,
        status: 'new',
      },
    })
    expect(published).toEqual([{ id: '1', type: 'NEW_SUBMISSION', data: result.ok && result.submission }])
    expect(listed(service)).toEqual([result.ok && result.submission])
  })

  it('stores a trapped submission set aside with its reasons, without telling the watchers', async () => {
    const { service, published } = setUp()
    const result = await service.submit(form, ['honeypot', 'filled_too_fast'])
    expect(result.ok && result.submission.spam).toEqual(['honeypot', 'filled_too_fast'])
    expect(published).toEqual([])
    expect(listed(service)).toEqual([])
    expect(listed(service, { spam: true })).toEqual([result.ok && result.submission])
  })

  it('sets aside what the analysis reads as spam, with its reasons beside any trap’s', async () => {
    const { service, published } = setUp({ ...analysis, spam: { isSpam: true, reasons: ['links', 'spam_phrasing'] } })
    const result = await service.submit(form, ['honeypot'])
    expect(result.ok && result.submission.spam).toEqual(['honeypot', 'links', 'spam_phrasing'])
    expect(listed(service)).toEqual([])
    expect(published).toEqual([])
  })

  it('purges spam stored before a time, and nothing else', async () => {
    const { service } = setUp()
    clock = new Date('2026-01-01T00:00:00.000Z')
    await service.submit({ ...form, name: 'Old spam' }, ['honeypot'])
    await service.submit({ ...form, name: 'Old inbox' })
    clock = new Date('2026-03-01T00:00:00.000Z')
    await service.submit({ ...form, name: 'New spam' }, ['honeypot'])
    expect(service.purgeSpam(new Date('2026-02-01T00:00:00.000Z'))).toBe(1)
    expect(listed(service, { spam: true }).map((s) => s.name)).toEqual(['New spam'])
    expect(listed(service).map((s) => s.name)).toEqual(['Old inbox'])
  })

  it('checks the fields before the traps: an invalid trapped form gets its errors and stores nothing', async () => {
    const { service } = setUp()
    expect(await service.submit({ ...form, email: '' }, ['honeypot'])).toEqual({
      ok: false,
      errors: { email: 'Email is required' },
    })
    expect(listed(service, { spam: true })).toEqual([])
  })

  it('reads the spam folder newest first from its own index, not by walking the inbox', () => {
    setUp()
    const plan = database.sqlite
      .prepare('EXPLAIN QUERY PLAN SELECT * FROM submissions WHERE spam_reasons IS NOT NULL ORDER BY id DESC')
      .all()
      .map((step) => (step as { detail: string }).detail)
    expect(plan.join('\n')).toContain('submissions_spam_newest_first')
    expect(plan.join('\n')).not.toContain('TEMP B-TREE')
  })

  it('marks a submission handled and new again, telling the watchers each time', async () => {
    const { service, published } = setUp()
    const stored = await service.submit(form)
    const id = stored.ok ? stored.submission.id : 0
    const handled = service.update(id, { status: 'handled' })
    expect(handled).toMatchObject({ id, status: 'handled' })
    expect(listed(service)).toEqual([handled])
    expect(service.update(id, { status: 'new' })).toMatchObject({ id, status: 'new' })
    expect(published.map((event) => [event.type, event.data.status])).toEqual([
      ['NEW_SUBMISSION', 'new'],
      ['SUBMISSION_UPDATED', 'handled'],
      ['SUBMISSION_UPDATED', 'new'],
    ])
  })

  it('counts what is new in the inbox from counts the triggers keep, leaving handled and spam out', async () => {
    const { service } = setUp()
    for (const name of ['A', 'B', 'C']) await service.submit({ ...form, name })
    await service.submit(form, ['honeypot'])
    expect(service.countNew()).toBe(3)
    service.update(2, { status: 'handled' })
    expect(service.countNew()).toBe(2)
    service.update(4, { spam: false })
    expect(service.countNew()).toBe(3)
    database.sqlite.prepare('DELETE FROM submissions WHERE id = 1').run()
    expect(service.countNew()).toBe(2)
    service.update(2, { status: 'new' })
    expect(service.countNew()).toBe(3)
  })

  it('takes a submission out of the spam folder into the inbox', async () => {
    const { service, published } = setUp()
    const trapped = await service.submit(form, ['filled_too_fast'])
    const id = trapped.ok ? trapped.submission.id : 0
    const kept = service.update(id, { spam: false })
    expect(kept).toMatchObject({ id, spam: null })
    expect(listed(service)).toEqual([kept])
    expect(listed(service, { spam: true })).toEqual([])
    expect(published).toEqual([{ id: String(id), type: 'SUBMISSION_UPDATED', data: kept }])
  })

  it('changes nothing and tells no one for an id it does not hold', () => {
    const { service, published } = setUp()
    expect(service.update(404, { status: 'handled' })).toBeNull()
    expect(published).toEqual([])
  })

  it('publishes only after the row is committed', async () => {
    const { service } = setUp()
    const seen: number[] = []
    const events = new SubmissionEvents()
    events.subscribe(() => {
      seen.push((database.sqlite.prepare('SELECT count(*) AS n FROM submissions').get() as { n: number }).n)
    })
    const watched = createSubmissionsService({
      db: database.db,
      events,
      analyse: async () => ({ analysis, aiResponse: 'ok' }),
    })
    await service.submit(form)
    await watched.submit(form)
    expect(seen).toEqual([2])
  })

  it('stores the analysis as JSON beside its words', async () => {
    const { service } = setUp()
    await service.submit(form)
    const row = database.sqlite.prepare('SELECT ai_response, analysis FROM submissions').get()
    expect(row).toEqual({ ai_response: 'Read: Any honey left?', analysis: JSON.stringify(analysis) })
  })

  it('stores and lists a submission that could not be analysed', async () => {
    database = openDatabase(tempDatabasePath(), migrationsFolder)
    const service = createSubmissionsService({
      db: database.db,
      events: new SubmissionEvents(),
      analyse: async () => ({ analysis: null, aiResponse: null }),
    })
    const result = await service.submit(form)
    expect(result.ok && result.submission).toMatchObject({ analysis: null, aiResponse: null })
    expect(listed(service)).toEqual([result.ok && result.submission])
  })

  it('neither stores nor publishes an invalid submission', async () => {
    const { service, published } = setUp()
    expect(await service.submit({ ...form, email: 'nope' })).toEqual({
      ok: false,
      errors: { email: 'Invalid email format' },
    })
    expect(listed(service)).toEqual([])
    expect(published).toEqual([])
  })

  it('publishes nothing when the insert fails', async () => {
    const { service, published } = setUp()
    database.sqlite.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON submissions BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    )
    await expect(service.submit(form)).rejects.toThrow('disk full')
    expect(published).toEqual([])
  })

  it('lists newest first, and only what came after a given id', async () => {
    const { service } = setUp()
    for (const name of ['One', 'Two', 'Three']) await service.submit({ ...form, name })
    expect(listed(service).map((s) => s.name)).toEqual(['Three', 'Two', 'One'])
    expect(listed(service, { after: 1 }).map((s) => s.name)).toEqual(['Three', 'Two'])
    expect(listed(service, { after: 3 })).toEqual([])
  })

  it('pages newest first by keyset: before, after and limit, with `more` while older ones remain', async () => {
    const { service } = setUp()
    for (let i = 1; i <= 7; i++) await service.submit({ ...form, name: `N${i}` })
    const first = service.list({ spam: false, limit: 3 })
    expect(first.submissions.map((s) => s.id)).toEqual([7, 6, 5])
    expect(first.more).toBe(true)
    const second = service.list({ spam: false, limit: 3, before: 5 })
    expect(second.submissions.map((s) => s.id)).toEqual([4, 3, 2])
    const last = service.list({ spam: false, limit: 3, before: 2 })
    expect(last).toEqual({ submissions: [expect.objectContaining({ id: 1 })], more: false })
    expect(service.list({ spam: false, limit: 10, before: 6, after: 3 }).submissions.map((s) => s.id)).toEqual([5, 4])
  })

  it('finds a submission’s tags by index, so the triggers cost the same at any size', () => {
    setUp()
    const plan = database.sqlite
      .prepare('EXPLAIN QUERY PLAN SELECT kind, value FROM submission_tags WHERE submission_id = 1')
      .all()
      .map((step) => (step as { detail: string }).detail)
      .join('\n')
    expect(plan).toContain('USING INDEX submission_tags_by_submission')
  })

  it('never sorts or offsets: the plain page walks the rowid backwards', () => {
    setUp()
    const plan = database.sqlite
      .prepare(
        'EXPLAIN QUERY PLAN SELECT * FROM submissions WHERE spam_reasons IS NULL AND id < 50 ORDER BY id DESC LIMIT 26',
      )
      .all()
      .map((step) => (step as { detail: string }).detail)
      .join('\n')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  it('stores submissions that arrive together in one go, each answered only once another connection can read it', async () => {
    const { service, published } = setUp()
    const names = ['Ann', 'Ben', 'Cas', 'Dee', 'Eli']
    const reader = new Sqlite(database.sqlite.name, { readonly: true })
    try {
      const results = await Promise.all(
        names.map(async (name) => {
          const result = await service.submit({ ...form, name })
          // Committed, not just written: a second connection sees the row already.
          const id = result.ok ? result.submission.id : 0
          return { name, id, seen: reader.prepare('SELECT name FROM submissions WHERE id = ?').get(id) }
        }),
      )
      expect(results).toEqual(names.map((name, i) => ({ name, id: i + 1, seen: { name } })))
      expect(published.map((event) => event.data.name)).toEqual(names)
    } finally {
      reader.close()
    }
  })

  it('stores the others of a batch when one of them cannot be stored', async () => {
    const { service } = setUp()
    database.sqlite.exec(
      "CREATE TRIGGER refuse_boom BEFORE INSERT ON submissions WHEN new.name = 'Boom' BEGIN SELECT RAISE(ABORT, 'refused'); END",
    )
    const results = await Promise.allSettled(['Ann', 'Boom', 'Cas'].map((name) => service.submit({ ...form, name })))
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(listed(service).map((submission) => submission.name)).toEqual(['Cas', 'Ann'])
  })

  /** A service whose analyses finish when the test says, counting the transactions it commits. */
  function withHeldAnalyses() {
    database = openDatabase(tempDatabasePath(), migrationsFolder)
    const db = database.db
    let transactions = 0
    const counted = new Proxy(db, {
      get: (target, key) =>
        key === 'transaction'
          ? (...args: Parameters<typeof db.transaction>) => {
              transactions++
              return target.transaction(...args)
            }
          : Reflect.get(target, key, target),
    })
    const held = new Map<string, () => void>()
    const service = createSubmissionsService({
      db: counted,
      events: new SubmissionEvents(),
      analyse: ({ name }) =>
        new Promise((resolve) => held.set(name, () => resolve({ analysis, aiResponse: `Read: ${name}` }))),
    })
    return { service, held, transactions: () => transactions }
  }

  describe('with the gathering timer under the test’s control', () => {
    beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }))
    afterEach(() => vi.useRealTimers())
    const turns = async (count: number) => {
      for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve))
    }

    it('lets an analysed submission wait for one still being analysed, and commits both together', async () => {
      const { service, held, transactions } = withHeldAnalyses()
      const ann = service.submit({ ...form, name: 'Ann' })
      const ben = service.submit({ ...form, name: 'Ben' })
      held.get('Ann')!()
      await turns(3)
      expect(transactions()).toBe(0)
      held.get('Ben')!()
      const results = await Promise.all([ann, ben])
      expect(results.map((result) => result.ok && result.submission.name)).toEqual(['Ann', 'Ben'])
      expect(transactions()).toBe(1)
    })

    it('waits at most 2 ms for an analysis that does not end', async () => {
      const { service, held, transactions } = withHeldAnalyses()
      let answered = false
      const ann = service.submit({ ...form, name: 'Ann' }).then((result) => ((answered = true), result))
      void service.submit({ ...form, name: 'Stuck' })
      held.get('Ann')!()
      await turns(3)
      vi.advanceTimersByTime(1)
      await turns(1)
      expect(answered).toBe(false)
      vi.advanceTimersByTime(1)
      const result = await ann
      expect(result.ok && result.submission.name).toBe('Ann')
      expect(listed(service).map((submission) => submission.name)).toEqual(['Ann'])
      expect(transactions()).toBe(1)
    })

    it('stores a lone submission without waiting', async () => {
      const { service, held, transactions } = withHeldAnalyses()
      const ann = service.submit({ ...form, name: 'Ann' })
      held.get('Ann')!()
      expect((await ann).ok).toBe(true)
      expect(transactions()).toBe(1)
    })
  })
})

describe('search and filters', () => {
  async function inbox() {
    const { service } = setUp()
    const analysed = (intents: Intent[], products: string[], level: 'high' | 'normal') => ({
      ...analysis,
      intents,
      products,
      urgency: { level, cues: [] },
    })
    const messages: Array<[Record<string, string>, ReturnType<typeof analysed>]> = [
      [
        { name: 'Ann Lee', email: 'ann@example.com', message: 'Any honey left?' },
        analysed(['product_inquiry'], ['honey'], 'normal'),
      ],
      [
        { name: 'Bob Shop', email: 'orders@corner-shop.co.uk', message: 'Wholesale eggs for the café, tomorrow' },
        analysed(['wholesale', 'order'], ['eggs'], 'high'),
      ],
      [
        { name: 'Zoë Brûlée', email: 'zoe@example.com', message: 'NEAR( "quoted" * OR thanks' },
        analysed(['feedback'], [], 'normal'),
      ],
    ]
    for (const [fields, reading] of messages) {
      const served = createSubmissionsService({
        db: database.db,
        events: new SubmissionEvents(),
        analyse: async () => ({ analysis: reading, aiResponse: 'ok' }),
      })
      await served.submit({ ...form, ...fields })
    }
    return service
  }
  const names = (service: SubmissionsService, page: Partial<InboxPage>) => listed(service, page).map((s) => s.name)

  it('finds words in any case and accent, by prefix, and email domains', async () => {
    const service = await inbox()
    expect(names(service, { q: 'HONEY' })).toEqual(['Ann Lee'])
    expect(names(service, { q: 'hon' })).toEqual(['Ann Lee'])
    expect(names(service, { q: 'cafe' })).toEqual(['Bob Shop'])
    expect(names(service, { q: 'zoe brulee' })).toEqual(['Zoë Brûlée'])
    expect(names(service, { q: 'example.com' })).toEqual(['Zoë Brûlée', 'Ann Lee'])
    expect(names(service, { q: '@corner-shop.co.uk' })).toEqual(['Bob Shop'])
    expect(names(service, { q: 'pears' })).toEqual([])
  })

  it.each([
    '"',
    '""',
    'NEAR(',
    'a OR b',
    '*',
    'honey*',
    '-honey',
    'name:ann',
    '"unbalanced',
    '(',
    ')',
    'AND',
    'NOT',
    '^',
    '{}',
    '\\',
  ])('treats FTS syntax %j as plain text, never an error', async (q) => {
    const service = await inbox()
    expect(() => listed(service, { q })).not.toThrow()
  })

  it('matches quoted syntax in a message as words', async () => {
    const service = await inbox()
    expect(names(service, { q: 'NEAR( "quoted"' })).toEqual(['Zoë Brûlée'])
  })

  it('filters by intent, product and urgency from the stored analysis, and combines them with search', async () => {
    const service = await inbox()
    expect(names(service, { intent: 'wholesale' })).toEqual(['Bob Shop'])
    expect(names(service, { intent: 'order' })).toEqual(['Bob Shop'])
    expect(names(service, { product: 'honey' })).toEqual(['Ann Lee'])
    expect(names(service, { urgency: 'high' })).toEqual(['Bob Shop'])
    expect(names(service, { urgency: 'normal' })).toEqual(['Zoë Brûlée', 'Ann Lee'])
    expect(names(service, { urgency: 'normal', q: 'example' })).toEqual(['Zoë Brûlée', 'Ann Lee'])
    expect(names(service, { intent: 'wholesale', q: 'honey' })).toEqual([])
  })

  it('counts each tag over the inbox, leaving spam out and following it in and out', async () => {
    const service = await inbox()
    const counted = () => Object.fromEntries(service.tagCounts().map((tag) => [`${tag.kind}:${tag.value}`, tag.count]))
    expect(counted()).toMatchObject({ 'intent:wholesale': 1, 'product:honey': 1, 'urgency:normal': 2 })
    service.update(1, { status: 'handled' })
    database.sqlite.prepare(`UPDATE submissions SET spam_reasons = '["honeypot"]' WHERE id = 1`).run()
    expect(counted()['product:honey']).toBeUndefined()
    service.update(1, { spam: false })
    expect(counted()['product:honey']).toBe(1)
    database.sqlite.prepare('DELETE FROM submissions WHERE id = 2').run()
    expect(counted()['intent:wholesale']).toBeUndefined()
    expect(names(service, { q: 'wholesale' })).toEqual([])
  })
})
