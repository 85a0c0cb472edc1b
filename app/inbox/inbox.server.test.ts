import { afterEach, describe, expect, it } from 'vitest'
import type { Analysis, Intent } from '#app/analysis/analysis'
import { honeyQuestion } from '#tests/fixtures/honey-question'
import type { OpenDatabase } from '#app/data/database.server'
import { SubmissionEvents } from '#app/live/events.server'
import { createSubmissionsService } from '#app/submissions/service.server'
import { seedSubmissions } from '#tests/support/seed'
import { servicesOverFreshDatabase } from '#tests/support/services'
import type { Inbox } from './inbox.server'
import type { InboxPage } from './inbox-query'

/** The team's first person, the owner (drizzle/0016). */
const owner = 1

const form = { name: 'Ann', email: 'ann@example.com', message: 'Any honey left?' }
const analysis = honeyQuestion
let database: OpenDatabase

let clock: Date

/** Submissions come in through the service; the inbox reads and changes them. */
function setUp(reading: Analysis = analysis) {
  clock = new Date('2026-05-01T08:00:00.000Z')
  const built = servicesOverFreshDatabase(reading, () => clock)
  database = built.database
  const { service, inbox, published } = built
  return { service, inbox, published }
}

afterEach(() => database?.close())

/** One page of a view, as big as any test needs. */
function listed(inbox: Inbox, page: Partial<InboxPage> = {}) {
  return inbox.list({ spam: false, limit: 100, ...page }).submissions
}

describe('the inbox', () => {
  it('purges spam stored before a time, and nothing else', async () => {
    const { service, inbox } = setUp()
    clock = new Date('2026-01-01T00:00:00.000Z')
    await service.submit({ ...form, name: 'Old spam' }, ['honeypot'])
    await service.submit({ ...form, name: 'Old inbox' })
    clock = new Date('2026-03-01T00:00:00.000Z')
    await service.submit({ ...form, name: 'New spam' }, ['honeypot'])
    expect(await inbox.purgeSpam(new Date('2026-02-01T00:00:00.000Z'))).toBe(1)
    expect(listed(inbox, { spam: true }).map((s) => s.name)).toEqual(['New spam'])
    expect(listed(inbox).map((s) => s.name)).toEqual(['Old inbox'])
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

  it('stamps its last live change on the counts’ clock: a page read before it is older, one read after is not', async () => {
    const { service, inbox } = setUp()
    const stored = await service.submit(form)
    const id = stored.ok ? stored.submission.id : 0
    const pageRead = inbox.readAt()
    expect(inbox.changedAt()).toBeLessThan(pageRead)
    await inbox.update(id, { status: 'handled' }, owner)
    const changed = inbox.changedAt()
    expect(changed).toBeGreaterThan(pageRead)
    expect(inbox.readAt()).toBeGreaterThan(changed)
    expect(inbox.changedAt()).toBe(changed)
  })

  it('marks a submission handled and new again, telling the watchers each time', async () => {
    const { service, inbox, published } = setUp()
    const stored = await service.submit(form)
    const id = stored.ok ? stored.submission.id : 0
    const handled = await inbox.update(id, { status: 'handled' }, owner)
    expect(handled).toMatchObject({ id, status: 'handled' })
    expect(listed(inbox)).toEqual([handled])
    expect(await inbox.update(id, { status: 'new' }, owner)).toMatchObject({ id, status: 'new' })
    expect(
      published.map((event) => [
        event.type,
        'data' in event
          ? event.data.status
          : 'ids' in event
            ? event.ids
            : 'name' in event
              ? event.name
              : event.order.id,
      ]),
    ).toEqual([
      ['NEW_SUBMISSION', 'new'],
      ['SUBMISSION_UPDATED', 'handled'],
      ['SUBMISSION_UPDATED', 'new'],
    ])
  })

  it('counts what is new in the inbox from counts the triggers keep, leaving handled and spam out', async () => {
    const { service, inbox } = setUp()
    for (const name of ['A', 'B', 'C']) await service.submit({ ...form, name })
    await service.submit(form, ['honeypot'])
    expect(inbox.countNew().count).toBe(3)
    await inbox.update(2, { status: 'handled' }, owner)
    expect(inbox.countNew().count).toBe(2)
    await inbox.update(4, { spam: false }, owner)
    expect(inbox.countNew().count).toBe(3)
    database.sqlite.prepare('DELETE FROM submissions WHERE id = 1').run()
    expect(inbox.countNew().count).toBe(2)
    await inbox.update(2, { status: 'new' }, owner)
    expect(inbox.countNew().count).toBe(3)
  })

  it('takes a submission out of the spam folder into the inbox', async () => {
    const { service, inbox, published } = setUp()
    const trapped = await service.submit(form, ['filled_too_fast'])
    const id = trapped.ok ? trapped.submission.id : 0
    const kept = await inbox.update(id, { spam: false }, owner)
    expect(kept).toMatchObject({ id, spam: null })
    expect(listed(inbox)).toEqual([kept])
    expect(listed(inbox, { spam: true })).toEqual([])
    expect(published).toEqual([{ type: 'SUBMISSION_UPDATED', data: kept }])
  })

  it('changes nothing and tells no one for an id it does not hold', async () => {
    const { inbox, published } = setUp()
    expect(await inbox.update(404, { status: 'handled' }, owner)).toBeNull()
    expect(published).toEqual([])
  })

  it('lists newest first, and only what came after a given id', async () => {
    const { service, inbox } = setUp()
    for (const name of ['One', 'Two', 'Three']) await service.submit({ ...form, name })
    expect(listed(inbox).map((s) => s.name)).toEqual(['Three', 'Two', 'One'])
    expect(listed(inbox, { after: 1 }).map((s) => s.name)).toEqual(['Three', 'Two'])
    expect(listed(inbox, { after: 3 })).toEqual([])
  })

  it('pages newest first by keyset: before, after and limit, with `next` while older ones remain', async () => {
    const { service, inbox } = setUp()
    for (let i = 1; i <= 7; i++) await service.submit({ ...form, name: `N${i}` })
    const first = inbox.list({ spam: false, limit: 3 })
    expect(first.submissions.map((s) => s.id)).toEqual([7, 6, 5])
    expect(first.next).toBe(5)
    const second = inbox.list({ spam: false, limit: 3, before: 5 })
    expect(second.submissions.map((s) => s.id)).toEqual([4, 3, 2])
    const last = inbox.list({ spam: false, limit: 3, before: 2 })
    expect(last).toEqual({ submissions: [expect.objectContaining({ id: 1 })], next: null })
    expect(inbox.list({ spam: false, limit: 10, before: 6, after: 3 }).submissions.map((s) => s.id)).toEqual([5, 4])
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
})

describe('search and filters', () => {
  /** Three submissions, each with its own analysis. */
  async function filled() {
    const { inbox } = setUp()
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
    return inbox
  }
  const names = (inbox: Inbox, page: Partial<InboxPage>) => listed(inbox, page).map((s) => s.name)

  it('finds words in any case and accent, by prefix, and email domains', async () => {
    const inbox = await filled()
    expect(names(inbox, { q: 'HONEY' })).toEqual(['Ann Lee'])
    expect(names(inbox, { q: 'hon' })).toEqual(['Ann Lee'])
    expect(names(inbox, { q: 'cafe' })).toEqual(['Bob Shop'])
    expect(names(inbox, { q: 'zoe brulee' })).toEqual(['Zoë Brûlée'])
    expect(names(inbox, { q: 'example.com' })).toEqual(['Zoë Brûlée', 'Ann Lee'])
    expect(names(inbox, { q: '@corner-shop.co.uk' })).toEqual(['Bob Shop'])
    expect(names(inbox, { q: 'pears' })).toEqual([])
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
    const inbox = await filled()
    expect(() => listed(inbox, { q })).not.toThrow()
  })

  it('matches quoted syntax in a message as words', async () => {
    const inbox = await filled()
    expect(names(inbox, { q: 'NEAR( "quoted"' })).toEqual(['Zoë Brûlée'])
  })

  it('filters by intent, product and urgency from the stored analysis, and combines them with search', async () => {
    const inbox = await filled()
    expect(names(inbox, { intent: 'wholesale' })).toEqual(['Bob Shop'])
    expect(names(inbox, { intent: 'order' })).toEqual(['Bob Shop'])
    expect(names(inbox, { product: 'honey' })).toEqual(['Ann Lee'])
    expect(names(inbox, { urgency: 'high' })).toEqual(['Bob Shop'])
    expect(names(inbox, { urgency: 'normal' })).toEqual(['Zoë Brûlée', 'Ann Lee'])
    expect(names(inbox, { urgency: 'normal', q: 'example' })).toEqual(['Zoë Brûlée', 'Ann Lee'])
    expect(names(inbox, { intent: 'wholesale', q: 'honey' })).toEqual([])
  })

  it('walks at most 2,000 search matches per page when filters pass few of them, and says where to go on', () => {
    const { inbox } = setUp()
    seedSubmissions(database.sqlite.name, 3_000)
    const match = "SELECT rowid FROM submissions_search WHERE submissions_search MATCH 'example' ORDER BY rowid"
    const matching = (database.sqlite.prepare(match).pluck().all() as number[]).reverse()
    expect(matching.length).toBeGreaterThan(2_000)
    const oldest = matching.at(-1)!
    database.sqlite.prepare("UPDATE submissions SET status = 'handled' WHERE id = ?").run(oldest)
    const view = { spam: false, limit: 50, q: 'example', status: 'handled' as const }
    const first = inbox.list(view)
    expect(first).toEqual({ submissions: [], next: matching[1_999] })
    const second = inbox.list({ ...view, before: first.next! })
    expect(second.submissions.map((s) => s.id)).toEqual([oldest])
    expect(second.next).toBeNull()
  })

  it('counts each tag over the inbox, leaving spam out and following it in and out', async () => {
    const inbox = await filled()
    const counted = () => Object.fromEntries(inbox.tagCounts().map((tag) => [`${tag.kind}:${tag.value}`, tag.count]))
    expect(counted()).toMatchObject({ 'intent:wholesale': 1, 'product:honey': 1, 'urgency:normal': 2 })
    await inbox.update(1, { status: 'handled' }, owner)
    database.sqlite.prepare(`UPDATE submissions SET spam_reasons = '["honeypot"]' WHERE id = 1`).run()
    expect(counted()['product:honey']).toBeUndefined()
    await inbox.update(1, { spam: false }, owner)
    expect(counted()['product:honey']).toBe(1)
    database.sqlite.prepare('DELETE FROM submissions WHERE id = 2').run()
    expect(counted()['intent:wholesale']).toBeUndefined()
    expect(names(inbox, { q: 'wholesale' })).toEqual([])
  })

  it('gives the counts a change to one submission moves: its own tags and the statuses, zeros kept', async () => {
    const inbox = await filled()
    const touched = (id: number) =>
      Object.fromEntries(inbox.countsTouchedBy(id).map((tag) => [`${tag.kind}:${tag.value}`, tag.count]))
    expect(touched(2)).toEqual({
      'intent:wholesale': 1,
      'intent:order': 1,
      'product:eggs': 1,
      'urgency:high': 1,
      'status:new': 3,
    })
    await inbox.update(2, { status: 'handled' }, owner)
    expect(touched(2)).toMatchObject({ 'status:new': 2, 'status:handled': 1 })
    await inbox.update(2, { status: 'new' }, owner)
    expect(touched(2)).toMatchObject({ 'status:new': 3, 'status:handled': 0 })
  })
})
