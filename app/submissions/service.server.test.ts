import { join } from 'node:path'
import Sqlite from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { servicesOverFreshDatabase } from '#tests/support/services'
import { tempDatabasePath } from '#tests/support/server'
import { SubmissionEvents } from '#app/live/events.server'
import { createInbox } from '#app/inbox/inbox.server'
import type { InboxPage } from '#app/inbox/inbox-query'
import pino from 'pino'
import { createDeliveryEngine } from '#app/delivery/engine.server'
import { createOutboxSender } from '#app/owner-mail/owner-mail-sender.server'
import { createSubmissionsService } from './service.server'
import type { Analysis } from '#app/analysis/analysis'
import { honeyQuestion } from '#tests/fixtures/honey-question'
import { retryBaseMs, unreachableOwnerMail } from '#tests/support/owner-mail-settings'

const migrationsFolder = join(import.meta.dirname, '../../drizzle')
const form = { name: 'Ann', email: 'ann@example.com', message: 'Any honey left?' }
const analysis = honeyQuestion
let database: OpenDatabase

let clock: Date

function setUp(reading: Analysis = analysis) {
  clock = new Date('2026-05-01T08:00:00.000Z')
  const built = servicesOverFreshDatabase(reading, () => clock)
  database = built.database
  const { service, published } = built
  return { service, published }
}

afterEach(() => database?.close())

/** One page of a view, as big as any test needs. */
function listed(page: Partial<InboxPage> = {}) {
  return createInbox({ db: database.db, events: new SubmissionEvents() }).list({ spam: false, limit: 100, ...page })
    .submissions
}

describe('the submissions service', () => {
  it('stores a valid submission, then publishes it', async () => {
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
        awaitingAnalysis: false,
        replies: [],
        replyCount: 0,
        history: [],
        answersUpdate: null,
      },
    })
    expect(published).toEqual([{ type: 'NEW_SUBMISSION', data: result.ok && result.submission }])
    expect(listed()).toEqual([result.ok && result.submission])
  })

  it('stores a trapped submission set aside with its reasons, without telling the watchers', async () => {
    const { service, published } = setUp()
    const result = await service.submit(form, ['honeypot', 'filled_too_fast'])
    expect(result.ok && result.submission.spam).toEqual(['honeypot', 'filled_too_fast'])
    expect(published).toEqual([])
    expect(listed()).toEqual([])
    expect(listed({ spam: true })).toEqual([result.ok && result.submission])
  })

  it('sets aside what the analysis reads as spam, with its reasons beside any trap’s', async () => {
    const { service, published } = setUp({ ...analysis, spam: { isSpam: true, reasons: ['links', 'spam_phrasing'] } })
    const result = await service.submit(form, ['honeypot'])
    expect(result.ok && result.submission.spam).toEqual(['honeypot', 'links', 'spam_phrasing'])
    expect(listed()).toEqual([])
    expect(published).toEqual([])
  })

  it('checks the fields before the traps: an invalid trapped form gets its errors and stores nothing', async () => {
    const { service } = setUp()
    expect(await service.submit({ ...form, email: '' }, ['honeypot'])).toEqual({
      ok: false,
      errors: { email: 'Email is required' },
    })
    expect(listed({ spam: true })).toEqual([])
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

  it('keeps the language a lead was written in when the page names none, and the page’s when it does', async () => {
    const { service } = setUp()
    const french = 'Bonjour, avez-vous encore des œufs pour samedi ? Merci beaucoup.'
    const german = 'Hallo, haben Sie noch Eier? Ich würde gern am Samstag vorbeikommen.'
    await service.submit({ ...form, message: french })
    await service.submit({ ...form, message: german })
    await service.submit(form)
    await service.submit({ ...form, message: french }, [], undefined, 'nl')
    await service.submit({ ...form, message: french }, [], undefined, 'en')
    await service.submit({ ...form, message: 'No worries, ring me Monday.' })
    const rows = database.sqlite.prepare('SELECT language FROM submissions ORDER BY id').all()
    // English (a page's too) and what cannot be told are kept as none, as the form always posted them.
    expect(rows).toEqual([
      { language: 'fr' },
      { language: 'de' },
      { language: null },
      { language: 'nl' },
      { language: null },
      { language: null },
    ])
  })

  describe('a message the analysis could not read', () => {
    /** A service whose analysis fails until `readable` is set, mailing the owner, on a clock the test moves. */
    function unreadable() {
      database = openDatabase(tempDatabasePath(), migrationsFolder)
      const events = new SubmissionEvents()
      const published: Array<{ type: string; id: number; spam: unknown }> = []
      events.subscribe((event) => {
        if ('data' in event) published.push({ type: event.type, id: event.data.id, spam: event.data.spam })
      })
      const state = { readable: false, now: new Date('2026-05-01T08:00:00.000Z') }
      const service = createSubmissionsService({
        db: database.db,
        events,
        analyse: async ({ message }) =>
          state.readable
            ? { analysis: /jars/i.test(message) ? spamReading : analysis, aiResponse: `Read: ${message}` }
            : { analysis: null, aiResponse: null },
        now: () => state.now,
        // The owner's mail is queued as in the site; no round runs, so nothing is sent.
        leadQueues: [
          createOutboxSender({
            engine: createDeliveryEngine({ db: database.db, writes: database.writes, log: pino({ level: 'silent' }) }),
            db: database.db,
            settings: () => unreachableOwnerMail,
            retryBaseMs,
          }),
        ],
      })
      const owed = () =>
        database.sqlite.prepare("SELECT submission_id AS id FROM deliveries WHERE kind = 'owner-mail'").pluck().all()
      const later = (ms: number) => (state.now = new Date(state.now.getTime() + ms))
      return { service, published, state, owed, later }
    }
    const spamReading: Analysis = { ...analysis, spam: { isSpam: true, reasons: ['spam_phrasing'] } }

    it('still meets the quick spam checks: SEO spam is set aside, never told or mailed', async () => {
      const { service, published, owed } = unreadable()
      const result = await service.submit({
        ...form,
        message: 'We offer SEO and backlink packages, visit https://rank.example.com today',
      })
      expect(result.ok && result.submission).toMatchObject({ analysis: null, awaitingAnalysis: false })
      expect(result.ok && result.submission.spam).toEqual(expect.arrayContaining(['links', 'spam_phrasing']))
      expect(listed()).toEqual([])
      expect(published).toEqual([])
      expect(owed()).toEqual([])
    })

    it('is listed as awaiting its analysis, neither told nor mailed until it is read again', async () => {
      const { service, published, owed, state, later } = unreadable()
      const result = await service.submit(form)
      expect(result.ok && result.submission).toMatchObject({ analysis: null, aiResponse: null, awaitingAnalysis: true })
      expect(listed()).toEqual([result.ok && result.submission])
      expect(published).toEqual([])
      expect(owed()).toEqual([])

      expect(await service.readAgainDue()).toBe(0)
      later(15_000)
      state.readable = true
      expect(await service.readAgainDue()).toBe(1)
      expect(listed()).toEqual([
        expect.objectContaining({ analysis, aiResponse: 'Read: Any honey left?', awaitingAnalysis: false }),
      ])
      expect(published).toEqual([{ type: 'NEW_SUBMISSION', id: 1, spam: null }])
      expect(owed()).toEqual([1])
      const tags = database.sqlite.prepare("SELECT count FROM tag_counts WHERE kind = 'product' AND value = 'honey'")
      expect(tags.pluck().get()).toBe(1)
    })

    it('is set aside when reading it again finds spam, and the watchers are told it moved', async () => {
      const { service, published, owed, state, later } = unreadable()
      // Nothing the quick checks know: only the analysis finds it is spam.
      await service.submit({ ...form, message: 'Buy our jars for your farm shop' })
      later(15_000)
      state.readable = true
      await service.readAgainDue()
      expect(listed()).toEqual([])
      expect(listed({ spam: true })).toEqual([expect.objectContaining({ id: 1, spam: ['spam_phrasing'] })])
      expect(published).toEqual([{ type: 'SUBMISSION_UPDATED', id: 1, spam: ['spam_phrasing'] }])
      expect(owed()).toEqual([])
      const counted = database.sqlite.prepare("SELECT count FROM tag_counts WHERE kind = 'product' AND value = 'honey'")
      expect(counted.pluck().get() ?? 0).toBe(0)
    })

    it('waits twice as long after each failed reading, and after the last is the owner’s to read as it is', async () => {
      const { service, published, owed, later } = unreadable()
      await service.submit(form)
      for (const wait of [15_000, 30_000, 60_000]) {
        later(wait - 1)
        expect(await service.readAgainDue()).toBe(0)
        later(1)
        expect(await service.readAgainDue()).toBe(1)
      }
      expect(listed()).toEqual([expect.objectContaining({ analysis: null, awaitingAnalysis: false })])
      expect(published).toEqual([{ type: 'NEW_SUBMISSION', id: 1, spam: null }])
      expect(owed()).toEqual([1])
    })
  })

  it('neither stores nor publishes an invalid submission', async () => {
    const { service, published } = setUp()
    expect(await service.submit({ ...form, email: 'nope' })).toEqual({
      ok: false,
      errors: { email: 'Invalid email format' },
    })
    expect(listed()).toEqual([])
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
      expect(published.map((event) => ('data' in event ? event.data.name : null))).toEqual(names)
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
    expect(listed().map((submission) => submission.name)).toEqual(['Cas', 'Ann'])
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
      expect(listed().map((submission) => submission.name)).toEqual(['Ann'])
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
