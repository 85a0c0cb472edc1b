import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import type { SubmissionRow } from '#app/data/schema'
import { tempDatabasePath } from '#tests/support/server'
import { createSignedLinks } from './signed-links.server'
import { createSubscribers } from './subscribers.server'

const dayMs = 24 * 60 * 60 * 1000
let database: OpenDatabase

afterEach(() => database?.close())

function setUp() {
  database = openDatabase(tempDatabasePath(), join(import.meta.dirname, '../../drizzle'))
  let clock = new Date('2026-11-24T08:00:00Z')
  const links = createSignedLinks({ db: database.db, publicUrl: () => 'https://bramble.example' })
  const subscribers = createSubscribers({
    db: database.db,
    writes: database.writes,
    links,
    farmName: () => 'Bramble Hill Farm',
    now: () => clock,
  })
  const lead = (email: string, name = 'Ann') => ({ email, name }) as SubmissionRow
  const tokenOf = (url: string) => new URL(url).searchParams.get('token')!
  return {
    links,
    subscribers,
    lead,
    tokenOf,
    later: (ms: number) => (clock = new Date(clock.getTime() + ms)),
    now: () => clock,
  }
}

describe('consent links', () => {
  it('subscribes by a confirm link for 7 days, then says it expired and changes nothing', async () => {
    const { links, subscribers, lead, tokenOf, later, now } = setUp()
    const id = subscribers.ask(lead('ann@example.com'), now())
    const token = tokenOf(links.confirmUrl(id, 'ann@example.com', now()))
    expect(subscribers.lookConfirm(token)).toEqual({
      ok: true,
      email: 'ann@example.com',
      status: 'asked',
      mayUndo: false,
      language: null,
    })
    later(7 * dayMs)
    expect(await subscribers.confirm(token)).toEqual({ ok: false, why: 'expired' })
    expect(subscribers.counts()).toMatchObject({ asked: 1, subscribed: 0 })
    // Expired, the address may be asked again; a fresh link works.
    expect(subscribers.mayAsk('ann@example.com', now())).toBe(true)
    const again = subscribers.ask(lead('Ann@Example.com'), now())
    expect(again).toBe(id)
    const fresh = tokenOf(links.confirmUrl(id, 'ann@example.com', now()))
    expect(await subscribers.confirm(fresh)).toEqual({
      ok: true,
      email: 'Ann@Example.com',
      status: 'subscribed',
      mayUndo: false,
      language: null,
    })
  })

  it('keeps the language the visitor was asked in, and the words they said yes to in it', async () => {
    const { links, subscribers, tokenOf, now } = setUp()
    const id = subscribers.ask({ email: 'marie@example.fr', name: 'Marie', language: 'fr' } as SubmissionRow, now())
    const token = tokenOf(links.confirmUrl(id, 'marie@example.fr', now()))
    expect(subscribers.lookConfirm(token)).toMatchObject({ ok: true, language: 'fr' })
    expect(await subscribers.confirm(token)).toMatchObject({ ok: true, status: 'subscribed', language: 'fr' })
    const consent = database.sqlite.prepare('SELECT consent FROM subscribers WHERE id = ?').pluck().get(id)
    expect(consent).toBe(
      'Oui, envoyez-moi par e-mail les nouvelles de Bramble Hill Farm : nouveaux produits, ce qui est de saison et les offres. Je peux me désabonner de chacune d’un seul clic.',
    )
    expect(subscribers.consentWords('fr')).toBe(consent)
    expect(subscribers.consentWords(null)).toMatch(/^Yes, send me Bramble Hill Farm’s updates by email/)
  })

  it('holds a link only for its own purpose and mailbox: forged, moved or cut tokens are not links', async () => {
    const { links, subscribers, lead, tokenOf, now } = setUp()
    const ann = subscribers.ask(lead('ann@example.com'), now())
    const ben = subscribers.ask(lead('ben@example.com', 'Ben'), now())
    const annConfirm = tokenOf(links.confirmUrl(ann, 'ann@example.com', now()))
    const annLeave = tokenOf(links.unsubscribeUrl(ann, 'ann@example.com'))
    const [, expiry, signature] = annConfirm.split('.')
    const invalid = { ok: false, why: 'invalid' }
    for (const token of [
      `${ben}.${expiry}.${signature}`, // Ann's signature on Ben's id
      `${ann}.${(parseInt(expiry!, 36) + dayMs).toString(36)}.${signature}`, // a later expiry
      `${ann}.${expiry}.${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`,
      annConfirm.slice(0, -1),
      annLeave, // an unsubscribe link is not a confirm link
      '',
      'x'.repeat(10_000),
      `${ann}.${expiry}.${'A'.repeat(43)}`,
    ]) {
      expect(await subscribers.confirm(token)).toEqual(invalid)
    }
    expect(await subscribers.unsubscribe(annConfirm)).toEqual(invalid)
    expect(await subscribers.unsubscribe(`${ben}.${annLeave.split('.')[1]}`)).toEqual(invalid)
    expect(subscribers.counts()).toMatchObject({ asked: 2, subscribed: 0, unsubscribed: 0 })
  })

  it('never asks again once someone is subscribed or left; only their own link subscribes them again', async () => {
    const { links, subscribers, lead, tokenOf, later, now } = setUp()
    const id = subscribers.ask(lead('ann@example.com'), now())
    const confirm = tokenOf(links.confirmUrl(id, 'ann@example.com', now()))
    await subscribers.confirm(confirm)
    expect(subscribers.mayAsk('ANN@example.com', now())).toBe(false)
    expect(subscribers.mayAsk('ann+eggs@example.com', now())).toBe(false)
    await subscribers.unsubscribe(tokenOf(links.unsubscribeUrl(id, 'ann@example.com')))
    later(30 * dayMs)
    expect(subscribers.mayAsk('ann@example.com', now())).toBe(false)
    expect(await subscribers.add({ email: 'ann@example.com', name: '', note: 'at the stall' })).toMatchObject({
      ok: false,
      status: 409,
      error: 'ann@example.com unsubscribed: only they can subscribe again, from a link in a mail of ours.',
    })
  })

  it('offers no Undo after the owner’s Remove, nor to an address the mail server refused', async () => {
    const { links, subscribers, lead, tokenOf, now } = setUp()
    const ann = subscribers.ask(lead('ann@example.com'), now())
    await subscribers.confirm(tokenOf(links.confirmUrl(ann, 'ann@example.com', now())))
    const leave = tokenOf(links.unsubscribeUrl(ann, 'ann@example.com'))
    expect(await subscribers.unsubscribe(leave)).toMatchObject({ status: 'unsubscribed', mayUndo: true })
    // The owner removes her from a list loaded before she left: her Undo is gone.
    await subscribers.remove(ann)
    expect(subscribers.lookUnsubscribe(leave)).toMatchObject({ status: 'unsubscribed', mayUndo: false })
    expect(await subscribers.undo(leave)).toMatchObject({ status: 'unsubscribed' })
    const ben = subscribers.ask(lead('ben@example.com', 'Ben'), now())
    database.sqlite.prepare(`UPDATE subscribers SET status = 'undeliverable' WHERE id = ?`).run(ben)
    const benLeave = tokenOf(links.unsubscribeUrl(ben, 'ben@example.com'))
    expect(await subscribers.unsubscribe(benLeave)).toMatchObject({ status: 'undeliverable', mayUndo: false })
    expect(await subscribers.undo(benLeave)).toMatchObject({ status: 'undeliverable' })
  })
})
