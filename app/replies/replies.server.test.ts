import { afterEach, describe, expect, it } from 'vitest'
import { honeyQuestion } from '#tests/fixtures/honey-question'
import type { OpenDatabase } from '#app/data/database.server'
import { servicesOverFreshDatabase } from '#tests/support/services'
import { createReplies, savedReplyLimits } from './replies.server'
import { replyLimits } from './reply'
import { keptVisitorMails } from './reply-delivery.server'

/** The team's first person, the owner (drizzle/0016). */
const owner = 1

const form = { name: 'Ann', email: 'ann@example.com', message: 'Any honey left?' }
let database: OpenDatabase

function setUp() {
  const clock = new Date('2026-11-23T08:00:00.000Z')
  const built = servicesOverFreshDatabase(honeyQuestion, () => clock)
  database = built.database
  let queued = 0
  const replies = createReplies({
    db: database.db,
    events: built.events,
    writes: database.writes,
    farmName: () => 'Bramble Hill Farm',
    from: () => 'hello@bramble.example',
    // The mails are owed where the site owes them; the test counts each wake after a commit.
    visitorMails: { ...keptVisitorMails({ owed: () => {} }), queued: () => void queued++ },
    acknowledging: () => false,
    now: () => clock,
  })
  return { ...built, replies, queued: () => queued }
}

afterEach(() => database?.close())

describe('replies', () => {
  it('queues a reply, marks the lead handled and tells the watchers, in one go', async () => {
    const { service, replies, published, queued } = setUp()
    const lead = await service.submit(form)
    const id = lead.ok ? lead.submission.id : 0
    const sent = await replies.send({ by: owner, submissionId: id, text: 'Yes, two jars.' })
    expect(sent).toMatchObject({
      ok: true,
      reply: { kind: 'reply', state: 'queued' },
      submission: { status: 'handled' },
    })
    expect(queued()).toBe(1)
    expect(published.at(-1)).toMatchObject({
      type: 'SUBMISSION_UPDATED',
      data: { id, status: 'handled', replyCount: 1, replies: [{ text: 'Yes, two jars.', state: 'queued' }] },
    })
  })

  it('answers the same request key with the same reply, and refuses it for another lead', async () => {
    const { service, replies, queued } = setUp()
    const first = await service.submit(form)
    const other = await service.submit({ ...form, name: 'Bo' })
    const id = first.ok ? first.submission.id : 0
    const once = await replies.send({ by: owner, submissionId: id, text: 'Yes.', requestKey: 'key-12345678' })
    const twice = await replies.send({ by: owner, submissionId: id, text: 'Yes.', requestKey: 'key-12345678' })
    expect(twice).toMatchObject({ ok: true, repeated: true })
    expect(once.ok && twice.ok && twice.reply.id === once.reply.id).toBe(true)
    expect(replies.history(id)).toHaveLength(1)
    expect(queued()).toBe(1)
    const elsewhere = await replies.send({
      by: owner,
      submissionId: other.ok ? other.submission.id : 0,
      text: 'Yes.',
      requestKey: 'key-12345678',
    })
    expect(elsewhere).toMatchObject({ ok: false, status: 409 })
  })

  it('refuses a reply to spam, to no lead, blank or too long, and stores nothing', async () => {
    const { service, replies } = setUp()
    const spam = await service.submit(form, ['honeypot'])
    const lead = await service.submit(form)
    const spamId = spam.ok ? spam.submission.id : 0
    const id = lead.ok ? lead.submission.id : 0
    expect(await replies.send({ by: owner, submissionId: spamId, text: 'Hi' })).toEqual({
      ok: false,
      status: 409,
      error: 'This message is in the spam folder. Mark it ‘Not spam’ before replying to it.',
    })
    expect(await replies.send({ by: owner, submissionId: 999, text: 'Hi' })).toMatchObject({ ok: false, status: 404 })
    expect(await replies.send({ by: owner, submissionId: id, text: '   ' })).toMatchObject({ ok: false, status: 400 })
    expect(await replies.send({ by: owner, submissionId: id, text: 'x'.repeat(replyLimits.text + 1) })).toMatchObject({
      ok: false,
      status: 400,
    })
    expect(replies.history(spamId)).toEqual([])
    expect(replies.history(id)).toEqual([])
  })

  it('fills a chosen saved reply for the lead when the text is blank (the form without JavaScript)', async () => {
    const { service, replies } = setUp()
    const lead = await service.submit(form)
    const id = lead.ok ? lead.submission.id : 0
    expect(await replies.saved.save({ name: 'Honey', text: 'Hello {name}, {farm} has {products} this week.' })).toEqual(
      {
        ok: true,
      },
    )
    const [saved] = replies.saved.list()
    const sent = await replies.send({ by: owner, submissionId: id, text: '', savedReplyId: saved!.id })
    expect(sent.ok && sent.reply.text).toBe(
      `Hello Ann, Bramble Hill Farm has ${honeyQuestion.products.join(' and ')} this week.`,
    )
  })

  it('keeps saved replies by unique name, with known placeholders, up to the limit', async () => {
    const { replies } = setUp()
    expect(await replies.saved.save({ name: 'Eggs this week', text: 'We have eggs, {name}.' })).toEqual({ ok: true })
    expect(await replies.saved.save({ name: ' eggs THIS week ', text: 'Again' })).toEqual({
      ok: false,
      status: 400,
      error: 'There is already a saved reply named “eggs THIS week”. Choose another name.',
    })
    expect(await replies.saved.save({ name: 'Prices', text: 'Our {price} list' })).toMatchObject({
      ok: false,
      error: '{price} is not a placeholder this text can fill: use {name}, {farm} or {products}.',
    })
    const [eggs] = replies.saved.list()
    // Renaming to its own name (in another case) is no clash.
    expect(await replies.saved.save({ id: eggs!.id, name: 'EGGS this week', text: 'Changed' })).toEqual({ ok: true })
    expect(replies.saved.list()).toEqual([{ id: eggs!.id, name: 'EGGS this week', text: 'Changed' }])
    for (let n = 1; n < savedReplyLimits.count; n++) {
      expect(await replies.saved.save({ name: `Reply ${n}`, text: 'Hi' })).toEqual({ ok: true })
    }
    expect(await replies.saved.save({ name: 'One too many', text: 'Hi' })).toMatchObject({ ok: false, status: 409 })
    expect(await replies.saved.remove(eggs!.id)).toEqual({ ok: true })
    expect(await replies.saved.remove(eggs!.id)).toMatchObject({ ok: false, status: 404 })
  })

  it('keeps the acknowledgement’s text free of anything a visitor typed', async () => {
    const { replies } = setUp()
    expect(replies.acknowledgement.text()).toContain('{farm}')
    expect(await replies.acknowledgement.setText('Thanks, {name}!')).toMatchObject({
      ok: false,
      status: 400,
      error: expect.stringContaining('never repeats anything they typed, not even a name'),
    })
    expect(await replies.acknowledgement.setText('Thanks from {farm}.')).toEqual({ ok: true })
    expect(replies.acknowledgement.text()).toBe('Thanks from {farm}.')
  })
})
