import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '../db/database.server'
import { tempDatabasePath } from '../../tests/support/server'
import { SubmissionEvents, type SubmissionEvent } from './events.server'
import { createSubmissionsService } from './service.server'
import { honeyQuestion } from './analysis/fixtures/honey-question'

const migrationsFolder = join(import.meta.dirname, '../../drizzle')
const form = { name: 'Ann', email: 'ann@example.com', message: 'Any honey left?' }
const analysis = honeyQuestion
let database: OpenDatabase

function setUp() {
  database = openDatabase(tempDatabasePath(), migrationsFolder)
  const events = new SubmissionEvents()
  const published: SubmissionEvent[] = []
  events.subscribe((event) => published.push(event))
  const clock = new Date('2026-05-01T08:00:00.000Z')
  const service = createSubmissionsService({
    db: database.db,
    events,
    analyse: async ({ message }) => ({ analysis, aiResponse: `Read: ${message}` }),
    now: () => clock,
  })
  return { service, published }
}

afterEach(() => database?.close())

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
    expect(service.list()).toEqual([result.ok && result.submission])
  })

  it('stores a trapped submission set aside with its reasons, without telling the watchers', async () => {
    const { service, published } = setUp()
    const result = await service.submit(form, ['honeypot', 'filled_too_fast'])
    expect(result.ok && result.submission.spam).toEqual(['honeypot', 'filled_too_fast'])
    expect(published).toEqual([])
    expect(service.list()).toEqual([])
    expect(service.list({ spam: true })).toEqual([result.ok && result.submission])
  })

  it('checks the fields before the traps: an invalid trapped form gets its errors and stores nothing', async () => {
    const { service } = setUp()
    expect(await service.submit({ ...form, email: '' }, ['honeypot'])).toEqual({
      ok: false,
      errors: { email: 'Email is required' },
    })
    expect(service.list({ spam: true })).toEqual([])
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
    expect(service.list()).toEqual([handled])
    expect(service.update(id, { status: 'new' })).toMatchObject({ id, status: 'new' })
    expect(published.map((event) => [event.type, event.data.status])).toEqual([
      ['NEW_SUBMISSION', 'new'],
      ['SUBMISSION_UPDATED', 'handled'],
      ['SUBMISSION_UPDATED', 'new'],
    ])
  })

  it('takes a submission out of the spam folder into the inbox', async () => {
    const { service, published } = setUp()
    const trapped = await service.submit(form, ['filled_too_fast'])
    const id = trapped.ok ? trapped.submission.id : 0
    const kept = service.update(id, { spam: false })
    expect(kept).toMatchObject({ id, spam: null })
    expect(service.list()).toEqual([kept])
    expect(service.list({ spam: true })).toEqual([])
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
    expect(service.list()).toEqual([result.ok && result.submission])
  })

  it('neither stores nor publishes an invalid submission', async () => {
    const { service, published } = setUp()
    expect(await service.submit({ ...form, email: 'nope' })).toEqual({
      ok: false,
      errors: { email: 'Invalid email format' },
    })
    expect(service.list()).toEqual([])
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
    expect(service.list().map((s) => s.name)).toEqual(['Three', 'Two', 'One'])
    expect(service.list({ after: 1 }).map((s) => s.name)).toEqual(['Three', 'Two'])
    expect(service.list({ after: 3 })).toEqual([])
  })
})
