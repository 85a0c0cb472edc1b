// Addresses that cannot be a visitor's (this machine, an IP address, a local network's name, a
// single label) were accepted, and mail to them goes to the farm's own server or nowhere. They
// are refused with the form's usual error, on the API and the no-JavaScript form. And a domain
// has one form (IDNA): `bücher.example` and `xn--bcher-kva.example` are one mailbox for every
// cap, subscription and erasure.
import Sqlite from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { keptAddress } from '#app/leads/address.server'
import { isEmailAddress, mailboxKey } from '#app/leads/mailbox'
import { signInAsOwner } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const notAVisitors = [
  'root@127.0.0.1',
  'x@localhost.localdomain',
  'x@LOCALHOST',
  'ann@10.0.0.7',
  'ann@192.168.1.20',
  'ann@[127.0.0.1]',
  'ann@[::1]',
  'ann@farm',
  'ann@printer.local',
  'ann@server.internal',
  'ann@nowhere.invalid',
  'ann@1.0.0.127.in-addr.arpa',
  'ann@router.lan',
  'ann@xyz.onion',
  // As mail reads them: 127.0.0.1 and lan.
  'ann@127.0.0.0x1',
  'ann@router.ｌａｎ',
]

describe('addresses that cannot be a visitor’s', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { SUBMISSION_RATE_LIMIT: '1000' } })
  })

  it.each(notAVisitors)('refuses %s on the API with the form’s error, and stores nothing', async (email) => {
    const answer = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ann', email, message: 'Hello' }),
    })
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({ errors: { email: 'Invalid email format' } })
  })

  it('refuses them on the no-JavaScript form too, with the message on the page', async () => {
    for (const email of ['root@127.0.0.1', 'x@localhost.localdomain']) {
      const answer = await rawRequest(server.url, {
        path: '/?index',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
        body: new URLSearchParams({ name: 'Ann', email, message: 'Hello' }).toString(),
      })
      expect(answer.status).toBe(400)
      expect(answer.text).toContain('Invalid email format')
    }
    const db = new Sqlite(server.databasePath, { readonly: true })
    expect(db.prepare('SELECT count(*) FROM submissions').pluck().get()).toBe(0)
    db.close()
  })

  it('still takes a visitor’s ordinary and international addresses', () => {
    for (const email of ['ann@example.com', 'ann@bücher.example', 'ann@xn--bcher-kva.example', 'a@b.co.uk']) {
      expect(isEmailAddress(email)).toBe(true)
    }
  })
})

describe('one form for an international domain', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { SUBMISSION_RATE_LIMIT: '1000', OWNER_PASSWORD: 'a-long-owner-password' } })
  })

  it('keeps both spellings as one address, found and forgotten as one person', async () => {
    for (const email of ['ann@xn--bcher-kva.example', 'ann@BÜCHER.example', 'ann@bücher.example']) {
      const answer = await fetch(`${server.url}/api/submissions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Ann', email, message: 'Any honey?' }),
      })
      expect(answer.status).toBe(201)
      expect(((await answer.json()) as { data: { email: string } }).data.email).toBe('ann@bücher.example')
    }
    // A row kept before the one form, in IDNA's ASCII, is found by either spelling too.
    const db = new Sqlite(server.databasePath)
    db.prepare(
      "INSERT INTO submissions (name, email, message, created_at) VALUES ('Ann', 'ann@xn--bcher-kva.example', 'Old', 1)",
    ).run()
    db.close()
    const cookie = await signInAsOwner(server.url, 'a-long-owner-password')
    const forgotten = await fetch(`${server.url}/api/people?email=${encodeURIComponent('ann@xn--bcher-kva.example')}`, {
      method: 'DELETE',
      headers: { Cookie: cookie },
    })
    expect(forgotten.status).toBe(200)
    expect(((await forgotten.json()) as { forgotten: { submissions: number } }).forgotten.submissions).toBe(4)
    expect(mailboxKey('Ann+eggs@bücher.example')).toBe(mailboxKey('ann@XN--BCHER-KVA.example'))
    expect(keptAddress('ann@xn--bcher-kva.example')).toBe('ann@bücher.example')
  })
})
