// Attacks on the team's ways in: guessing passwords (per address with the shipped limit, per
// account from many addresses), a planted session, claiming the site, passkey answers that are not
// a passkey's, and the activity log as a place a visitor's address could be left.
import Sqlite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { readRows } from '#tests/support/database'
import { rawRequest } from '#tests/support/raw-request'
import { serverPerTest } from '#tests/support/server-per-test'
import type { RunningServer } from '#tests/support/server'
import { runClaim } from '#tests/support/claim'
import { addPerson, cookieOf, fromSomewhere, signInAs } from '#tests/support/team'

const ownerPassword = 'the old orchard gate'
const serve = serverPerTest()
const form = { 'Content-Type': 'application/x-www-form-urlencoded' }

function tryPassword(server: RunningServer, email: string, password: string, headers: Record<string, string> = {}) {
  return rawRequest(server.url, {
    path: '/sign-in',
    headers: { ...form, ...headers },
    body: new URLSearchParams({ email, password }).toString(),
  })
}

async function activity(server: RunningServer, owner: string) {
  const answer = await fetch(`${server.url}/farm-sales/activity?_data=routes%2Ffarm-sales_.activity`, {
    headers: { Cookie: owner },
  })
  expect(answer.status).toBe(200)
  return (
    (await answer.json()) as {
      entries: Array<{ kind: string; who: string; detail: string; subjectHash: string | null; address: string | null }>
    }
  ).entries
}

describe('guessing passwords', () => {
  it('is limited per address with the shipped limit: the sixth try in a minute is refused, on every way in', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: ownerPassword } })
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await tryPassword(server, 'nobody@farm.example', `guess ${attempt}`)).status).toBe(401)
    }
    const sixth = await tryPassword(server, '', ownerPassword)
    expect(sixth.status).toBe(429)
    // The invitation and passkey doors count against the same allowance.
    const join = await rawRequest(server.url, { path: `/join/${'a'.repeat(43)}`, headers: form, body: 'password=x' })
    expect(join.status).toBe(429)
    const passkey = await rawRequest(server.url, {
      path: '/api/sign-in/passkey',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ response: { id: 'x', response: {} } }),
    })
    expect(passkey.status).toBe(429)
  })

  it('counts the password asked before adding a passkey as a sign-in’s: 5 a minute per address, 50 wrong from all', async () => {
    // TRUST_PROXY so each guess comes from an address of its own. Before: 70 wrong from 7 addresses were all judged.
    const server = await serve({ env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback' } })
    const owner = await signInAs(server.url, '', ownerPassword)
    const guess = (password: string, from: Record<string, string>) =>
      fetch(`${server.url}/api/passkeys`, {
        method: 'POST',
        headers: { Cookie: owner, Origin: server.url, 'Content-Type': 'application/json', ...from },
        body: JSON.stringify({ password }),
      })
    const one = fromSomewhere()
    for (let n = 0; n < 5; n++) expect((await guess(`guess ${n}`, one)).status).toBe(400)
    const sixth = await guess(ownerPassword, one)
    expect(sixth.status).toBe(429)
    expect(sixth.headers.get('retry-after')).toMatch(/^\d+$/)
    // Many addresses: 45 more wrong ones make 50 on the account; then the right one is refused from anywhere.
    for (let n = 0; n < 45; n++) {
      expect((await guess(`botnet ${n}`, { 'X-Forwarded-For': `203.0.113.${n + 1}` })).status).toBe(400)
    }
    const right = await guess(ownerPassword, fromSomewhere())
    expect(right.status).toBe(429)
    expect(await right.json()).toEqual({ error: 'Too many wrong passwords. Wait a while.' })
    // The same account's sign-in waits out the same window.
    expect((await tryPassword(server, '', ownerPassword, fromSomewhere())).status).toBe(429)
    expect(readRows(server.databasePath, 'SELECT count(*) AS n FROM passkeys')).toEqual([{ n: 0 }])
  })

  // 50 password checks (scrypt) and more: 12 s alone, past the default 30 s beside the rest of a CI run.
  it(
    'is limited per account from many addresses: past 50 wrong in all, the password waits out the window, from anywhere',
    { timeout: 90_000 },
    async () => {
      // TRUST_PROXY so each guess comes from an address of its own, as a botnet's would.
      const server = await serve({ env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback' } })
      const owner = await signInAs(server.url, '', ownerPassword)
      await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
      const right = 'sweet peas by the gate'
      // (10 wrong from one address are barred too, at 5 a minute: app/owner/owner-access.server.test.ts, on a clock.)
      // Many addresses, one guess each: past 50 in all, no address guesses further (a passkey still signs in).
      const botnet = Array.from({ length: 50 }, (_, n) => ({ 'X-Forwarded-For': `192.0.2.${n + 1}` }))
      for (const [n, from] of botnet.entries()) {
        expect((await tryPassword(server, 'sam@farm.example', `botnet ${n}`, from)).status).toBe(401)
      }
      expect((await tryPassword(server, 'sam@farm.example', right, botnet[0])).status).toBe(429)
      const fresh = await tryPassword(server, 'sam@farm.example', right, fromSomewhere())
      expect(fresh.status).toBe(429)
      expect(fresh.text).toContain('Wait a while, or sign in with a passkey.')
      await signInAs(server.url, '', ownerPassword)
      // Each refusal against the account is in the activity log: its name, never the words typed.
      const failed = (await activity(server, owner)).filter((entry) => entry.kind === 'sign-in-failed')
      expect(failed).toHaveLength(50)
      expect(failed[0]).toMatchObject({ who: 'Someone not signed in', detail: 'A wrong password for Sam Field' })
      expect(readRows(server.databasePath, "SELECT count(*) AS n FROM activity WHERE kind = 'sign-in-failed'")).toEqual(
        [{ n: 50 }],
      )
      expect(JSON.stringify(readRows(server.databasePath, 'SELECT * FROM activity'))).not.toContain('botnet')
    },
  )
})

describe('sessions', () => {
  it('never keeps a session id across a sign-in: one planted before is ended by it', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: ownerPassword } })
    const planted = await signInAs(server.url, '', ownerPassword)
    // Someone else signs in on a browser the planted cookie was put in.
    const answer = await rawRequest(server.url, {
      path: '/sign-in',
      headers: { ...form, Cookie: planted },
      body: new URLSearchParams({ email: '', password: ownerPassword }).toString(),
    })
    expect(answer.status).toBe(302)
    const fresh = cookieOf(answer)
    expect(fresh).not.toBe(planted)
    expect((await fetch(`${server.url}/api/submissions`, { headers: { Cookie: planted } })).status).toBe(401)
    expect((await fetch(`${server.url}/api/submissions`, { headers: { Cookie: fresh } })).status).toBe(200)
  })
})

describe('claiming the site', () => {
  const claimBody = (name: string, email: string, password: string) =>
    new URLSearchParams({ name, email, password }).toString()

  it('from elsewhere, /claim names the command and refuses the form, however the request says it is local', async () => {
    const server = await serve({ env: { TRUST_PROXY: 'loopback' } })
    const elsewhere: Array<Record<string, string>> = [
      { 'X-Forwarded-For': '203.0.113.9' },
      { Forwarded: 'for=203.0.113.9' },
      { 'X-Real-IP': '127.0.0.1' },
      { Via: '1.1 proxy' },
      { 'X-Forwarded-Host': 'localhost' },
    ]
    for (const headers of elsewhere) {
      const page = await rawRequest(server.url, { method: 'GET', path: '/claim', headers })
      expect(page.status, JSON.stringify(headers)).toBe(200)
      expect(page.text).toContain('npm run claim')
      expect(page.text).not.toContain('Make me the owner')
      const posted = await rawRequest(server.url, {
        path: '/claim',
        headers: { ...form, ...headers },
        body: claimBody('Mallory', 'm@evil.example', 'hens under the pear tree'),
      })
      expect(posted.status, JSON.stringify(headers)).toBe(403)
    }
    expect(readRows(server.databasePath, 'SELECT email FROM team')).toEqual([{ email: null }])
    expect(readRows(server.databasePath, 'SELECT hash FROM claim_links')).toEqual([])
    // Only GET and POST: any other method is refused before it reaches the form.
    const body = claimBody('Mallory', 'm@evil.example', 'hens under the pear tree')
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const other = await rawRequest(server.url, {
        method,
        path: '/claim',
        headers: { ...form, 'Content-Length': String(Buffer.byteLength(body)) },
        body,
      })
      expect(other.status, method).toBe(405)
    }
    expect(readRows(server.databasePath, 'SELECT email FROM team')).toEqual([{ email: null }])
  })

  it('the printed link works once, closes the open inbox and any live link opened in it, and is never logged', async () => {
    const server = await serve({})
    for (const path of [`/set-up/${'b'.repeat(43)}`, `/set-up/${'b'.repeat(44)}`, '/set-up/%2D%2D']) {
      expect((await rawRequest(server.url, { method: 'GET', path })).status, path).toBe(410)
    }
    const stranger = new WebSocket(server.wsUrl, { headers: { Origin: server.url } })
    const strangerClosed = new Promise<number>((resolve) => stranger.once('close', (code) => resolve(code)))
    await new Promise<void>((resolve, reject) => {
      stranger.once('open', () => resolve())
      stranger.once('error', reject)
    })
    const { link } = await runClaim(server)
    const path = new URL(link!).pathname
    const token = path.split('/').pop()!
    const weak = await rawRequest(server.url, {
      path,
      headers: form,
      body: claimBody('Alex Meadow', 'alex@farm.example', 'password1234'),
    })
    expect(weak.status).toBe(400)
    const made = await rawRequest(server.url, {
      path,
      headers: form,
      body: claimBody('Alex Meadow', 'alex@farm.example', 'hens under the pear tree'),
    })
    expect(made.status).toBe(302)
    expect(await strangerClosed).toBe(1008)
    expect((await fetch(`${server.url}/api/submissions`)).status).toBe(401)
    const again = await rawRequest(server.url, {
      path,
      headers: form,
      body: claimBody('Mallory', 'm@evil.example', 'hens under the pear tree'),
    })
    expect(again.status).toBe(410)
    // From this machine too: the site is claimed.
    const local = await rawRequest(server.url, {
      path: '/claim',
      headers: form,
      body: claimBody('Mallory', 'm@evil.example', 'hens under the pear tree'),
    })
    expect(local.status).toBe(410)
    expect(readRows(server.databasePath, 'SELECT id, name, email, role FROM team')).toEqual([
      { id: 1, name: 'Alex Meadow', email: 'alex@farm.example', role: 'owner' },
    ])
    expect(readRows(server.databasePath, 'SELECT hash FROM claim_links')).toEqual([])
    const owner = await signInAs(server.url, 'alex@farm.example', 'hens under the pear tree')
    expect((await fetch(`${server.url}/api/submissions`, { headers: { Cookie: owner } })).status).toBe(200)
    await expect.poll(() => server.output()).toContain('"path":"/set-up/…"')
    expect(server.output()).not.toContain(token)
  })
})

describe('links that are ways in', () => {
  it('are never written to the log', async () => {
    const server = await serve({ env: { TRUST_PROXY: 'loopback' } })
    const token = 'c'.repeat(43)
    expect((await rawRequest(server.url, { method: 'GET', path: `/join/${token}` })).status).toBe(404)
    expect((await rawRequest(server.url, { method: 'GET', path: `/set-up/${token}` })).status).toBe(410)
    await expect.poll(() => server.output()).toContain('"path":"/set-up/…"')
    expect(server.output()).toContain('"path":"/join/…"')
    expect(server.output()).not.toContain(token)
  })
})

describe('passkey answers that are not a passkey’s', () => {
  it('are refused in words, never a 500, and change nothing', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback' } })
    const options = await fetch(`${server.url}/api/sign-in/passkey`)
    expect(options.status).toBe(200)
    const { options: offered } = (await options.json()) as { options: { challenge: string; rpId: string } }
    expect(offered.rpId).toBe('127.0.0.1')
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: offered.challenge, origin: server.url }),
    ).toString('base64url')
    // The same JSON reader as every API: words for what is not JSON, or not the shape asked for.
    const notRead = [
      { body: 'not json', says: /^The request body is not valid JSON\.$/ },
      { body: 'null', says: /^Send the browser’s \{"response": …\}/ },
      { body: '{"response": {}, "redirectTo": 5}', says: /^Send the browser’s \{"response": …\}/ },
    ]
    for (const { body, says } of notRead) {
      const answer = await rawRequest(server.url, {
        path: '/api/sign-in/passkey',
        headers: { 'Content-Type': 'application/json', ...fromSomewhere() },
        body,
      })
      expect(answer.status, body).toBe(400)
      expect(JSON.parse(answer.text).error).toMatch(says)
    }
    const asText = await rawRequest(server.url, {
      path: '/api/sign-in/passkey',
      headers: { 'Content-Type': 'text/plain', ...fromSomewhere() },
      body: '{"response": {}}',
    })
    expect(asText.status).toBe(415)
    expect(JSON.parse(asText.text).error).toBe('Send the passkey as JSON (Content-Type: application/json).')
    const bodies: unknown[] = [
      { response: 'x' },
      { response: { id: 'x'.repeat(5_000), response: {} } },
      {
        response: {
          id: 'unknown-key',
          rawId: 'unknown-key',
          type: 'public-key',
          response: { clientDataJSON: clientData, authenticatorData: 'AA', signature: 'AA' },
        },
      },
    ]
    for (const body of bodies) {
      const answer = await rawRequest(server.url, {
        path: '/api/sign-in/passkey',
        headers: { 'Content-Type': 'application/json', ...fromSomewhere() },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      })
      expect([400, 401], answer.text).toContain(answer.status)
      expect(JSON.parse(answer.text).error).toMatch(/^That passkey (was not accepted|is not one of the team’s)/)
      expect(answer.headers['set-cookie']).toBeUndefined()
    }
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const answer = await rawRequest(server.url, { method, path: '/api/sign-in/passkey', headers: fromSomewhere() })
      expect(answer.status, method).toBe(405)
    }
    // Adding one needs a person signed in, and their password: a session alone adds no way in.
    expect((await fetch(`${server.url}/api/passkeys`, { method: 'POST', body: '{}' })).status).toBe(401)
    const owner = await signInAs(server.url, '', ownerPassword)
    const asOwner = (body: unknown) =>
      fetch(`${server.url}/api/passkeys`, {
        method: 'POST',
        headers: { Cookie: owner, Origin: server.url, 'Content-Type': 'application/json', ...fromSomewhere() },
        body: JSON.stringify(body),
      })
    const noPassword = await asOwner({})
    expect(noPassword.status).toBe(400)
    const notText = await asOwner({ password: 12345 })
    expect(notText.status).toBe(400)
    expect(await notText.json()).toEqual({ error: 'Send {"password": "…"} first, then the browser’s {"response": …}.' })
    const asForm = await fetch(`${server.url}/api/passkeys`, {
      method: 'POST',
      headers: { Cookie: owner, Origin: server.url, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'password=not+the+password',
    })
    expect(asForm.status).toBe(415)
    const wrong = await asOwner({ password: 'not the password' })
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toEqual({ error: 'Your password is not right.' })
    expect((await fetch(`${server.url}/api/passkeys`, { headers: { Cookie: owner } })).status).toBe(405)
    expect(readRows(server.databasePath, 'SELECT count(*) AS n FROM sessions')).toEqual([{ n: 1 }])
    expect(readRows(server.databasePath, 'SELECT count(*) AS n FROM passkeys')).toEqual([{ n: 0 }])
  })
})

describe('the activity log', () => {
  it('records the data’s actions by whom, and names a visitor only by the erasure list’s hash, never their address', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback' } })
    const owner = await signInAs(server.url, '', ownerPassword)
    const posted = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Vera Visitor',
        email: 'vera@visitor.example',
        message: 'Please send me your price list for eggs.',
      }),
    })
    const { data } = (await posted.json()) as { data: { id: number } }
    const asOwner = { headers: { Cookie: owner, Origin: server.url } }
    expect((await fetch(`${server.url}/api/submissions.csv`, asOwner)).status).toBe(200)
    expect((await fetch(`${server.url}/api/backup`, asOwner)).status).toBe(200)
    expect((await fetch(`${server.url}/api/people?email=vera%40visitor.example`, asOwner)).status).toBe(200)
    expect(
      (await fetch(`${server.url}/api/people?email=vera%40visitor.example`, { ...asOwner, method: 'DELETE' })).status,
    ).toBe(200)
    expect((await fetch(`${server.url}/api/submissions/${data.id}`, { ...asOwner, method: 'DELETE' })).status).toBe(404)
    const entries = await activity(server, owner)
    expect(entries.map((entry) => entry.kind)).toEqual(['forget', 'person-export', 'backup-download', 'export'])
    expect(entries.every((entry) => entry.who === 'Owner')).toBe(true)
    const [forget, exported] = entries
    expect(forget!.subjectHash).toBeTruthy()
    expect(exported!.subjectHash).toBe(forget!.subjectHash)
    const sqlite = new Sqlite(server.databasePath, { readonly: true })
    const everything = JSON.stringify(sqlite.prepare('SELECT * FROM activity').all())
    sqlite.close()
    expect(everything).not.toContain('vera')
    expect(everything).not.toContain('Vera')
  })
})
