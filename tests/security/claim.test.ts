// Attacks on claiming the site (decision 039): a stranger passing for the site's own machine, other
// spellings, methods and bodies of /claim and /set-up, two claims at once, the claim link in the
// log, `npm run claim` on a locked or claimed database, and the welcome form of the owner
// OWNER_PASSWORD made, posted by someone else of the team.
import Sqlite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { rawRequest } from '#tests/support/raw-request'
import { serverPerTest } from '#tests/support/server-per-test'
import type { RunningServer } from '#tests/support/server'
import { runClaim } from '#tests/support/claim'
import { addPerson, cookieOf, fromSomewhere, signInAs } from '#tests/support/team'

const serve = serverPerTest()
const form = { 'Content-Type': 'application/x-www-form-urlencoded' }
const pearTree = 'hens under the pear tree'
const claimBody = (name: string, email: string, password = pearTree) =>
  new URLSearchParams({ name, email, password }).toString()
const team = (server: RunningServer) => readRows(server.databasePath, 'SELECT id, name, email, role FROM team')
const unclaimed = [{ id: 1, name: 'Owner', email: null, role: 'owner' }]

function claim(server: RunningServer, path: string, body: string, headers: Record<string, string> = {}) {
  return rawRequest(server.url, { path, headers: { ...form, ...headers }, body })
}

async function linkPath(server: RunningServer) {
  const { link } = await runClaim(server)
  expect(link).not.toBeNull()
  return new URL(link!).pathname
}

describe('claiming from the site’s own machine', () => {
  it('is for a request plainly from it: other names, a proxy’s headers or another site’s page get the command and a 403', async () => {
    const direct = await serve({})
    const behindProxy = await serve({ env: { TRUST_PROXY: 'loopback' } })
    const port = (server: RunningServer) => new URL(server.url).port
    const strangers: Array<[string, (server: RunningServer) => Record<string, string>]> = [
      ['a name with a dot', (s) => ({ Host: `localhost.:${port(s)}` })],
      ['another loopback address as the name', () => ({ Host: '127.0.0.2' })],
      ['IPv4 in IPv6 as the name', () => ({ Host: '[::ffff:127.0.0.1]' })],
      ['another site’s name (DNS rebinding)', () => ({ Host: 'farm.evil.example' })],
      ['localhost as a subdomain', () => ({ Host: 'localhost.evil.example' })],
      ['an empty X-Forwarded-For', () => ({ 'X-Forwarded-For': '' })],
      ['X-Forwarded-For: 127.0.0.1', () => ({ 'X-Forwarded-For': '127.0.0.1' })],
      ['X-Forwarded-For: ::1', () => ({ 'X-Forwarded-For': '::1' })],
      ['Forwarded', () => ({ Forwarded: 'for=127.0.0.1;host=localhost' })],
      ['X-Forwarded-Host', () => ({ 'X-Forwarded-Host': 'localhost' })],
      ['X-Forwarded-Proto', () => ({ 'X-Forwarded-Proto': 'https' })],
      ['X-Real-IP', () => ({ 'X-Real-IP': '127.0.0.1' })],
      ['Via', () => ({ Via: '1.1 localhost' })],
      ['X-Forwarded-Port', () => ({ 'X-Forwarded-Port': '443' })],
      ['X-Client-IP', () => ({ 'X-Client-IP': '127.0.0.1' })],
      ['True-Client-IP', () => ({ 'True-Client-IP': '127.0.0.1' })],
      ['CF-Connecting-IP', () => ({ 'CF-Connecting-IP': '127.0.0.1' })],
    ]
    for (const server of [direct, behindProxy]) {
      for (const [what, headersFor] of strangers) {
        const headers = headersFor(server)
        const page = await rawRequest(server.url, { method: 'GET', path: '/claim', headers })
        expect(page.status, what).toBe(200)
        expect(page.text, what).toContain('npm run claim')
        expect(page.text, what).not.toContain('Make me the owner')
        expect((await claim(server, '/claim', claimBody('Mallory', 'm@evil.example'), headers)).status, what).toBe(403)
      }
      // The machine's own browser on another site's page (or a page on another port): the same-origin guard.
      const otherSites: Array<Record<string, string>> = [
        { Origin: 'http://evil.example' },
        { Origin: 'http://localhost:1' },
        { 'Sec-Fetch-Site': 'cross-site' },
        { 'Sec-Fetch-Site': 'same-site' },
      ]
      for (const headers of otherSites) {
        const posted = await claim(server, '/claim', claimBody('Mallory', 'm@evil.example'), headers)
        expect(posted.status, JSON.stringify(headers)).toBe(403)
      }
      expect(team(server)).toEqual(unclaimed)
    }
  })

  it('answers every spelling of /claim alike, and only to GET and POST', async () => {
    const server = await serve({ env: { TRUST_PROXY: 'loopback' } })
    for (const path of ['/CLAIM', '/%63laim', '/claim/', '/claim?index', '/claim?_data=routes%2Fclaim']) {
      const posted = await claim(server, path, claimBody('Mallory', 'm@evil.example'), {
        'X-Forwarded-For': '203.0.113.9',
      })
      expect(posted.status, path).toBe(403)
    }
    // Two slashes are no way to the form: the root, which has no action.
    expect((await claim(server, '//claim', claimBody('Mallory', 'm@evil.example'))).status).toBe(405)
    const body = claimBody('Mallory', 'm@evil.example')
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      for (const path of ['/claim', await linkPath(server)]) {
        const other = await rawRequest(server.url, {
          method,
          path,
          headers: { ...form, 'Content-Length': String(Buffer.byteLength(body)) },
          body,
        })
        expect(other.status, `${method} ${path}`).toBe(405)
      }
    }
    const head = await rawRequest(server.url, { method: 'HEAD', path: '/claim' })
    expect(head.status).toBe(200)
    expect(team(server)).toEqual(unclaimed)
  })

  it('takes a small form of text only, five tries a minute, and shows back what was typed as text', async () => {
    const server = await serve({})
    const huge = await claim(server, '/claim', claimBody('M'.repeat(20_000), 'm@evil.example'))
    expect(huge.status).toBe(413)
    const boundary = 'farm-boundary'
    const withFile = await rawRequest(server.url, {
      path: '/claim',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: [
        `--${boundary}\r\nContent-Disposition: form-data; name="name"; filename="name.txt"\r\n`,
        `Content-Type: text/plain\r\n\r\nMallory\r\n--${boundary}--\r\n`,
      ],
    })
    expect(withFile.status).toBe(400)
    expect(withFile.text).toContain('Send the form’s fields as text, not as files.')
    // Shown back in the form as typed, never as markup.
    const marked = await claim(server, '/claim', claimBody('<img src=x onerror=alert(1)>', 'a@b.example', 'short'))
    expect(marked.status).toBe(400)
    expect(marked.text).not.toContain('<img src=x')
    expect(marked.text).toContain('&lt;img src=x onerror=alert(1)&gt;')
    // Five tries a minute from one address, counted whatever they were: the sixth is refused.
    for (let n = 0; n < 3; n++)
      expect((await claim(server, '/claim', claimBody('Alex', 'a@b.example', 'x'))).status).toBe(400)
    const sixth = await claim(server, '/claim', claimBody('Alex Meadow', 'alex@farm.example'))
    expect(sixth.status).toBe(429)
    expect(sixth.headers['retry-after']).toMatch(/^\d+$/)
    expect(team(server)).toEqual(unclaimed)
    // A field given twice: the first counts, once.
    const other = await serve({})
    const twice = await claim(
      other,
      '/claim',
      `${claimBody('Alex Meadow', 'alex@farm.example')}&email=m%40evil.example&name=Mallory`,
    )
    expect(twice.status).toBe(302)
    expect(team(other)).toEqual([{ id: 1, name: 'Alex Meadow', email: 'alex@farm.example', role: 'owner' }])
  })
})

describe('a claimed site', () => {
  it('says only that it is claimed: no command, no note, and a link printed before OWNER_PASSWORD no longer works', async () => {
    const first = await serve({})
    const path = await linkPath(first)
    await first.stop()
    const server = await serve({ databasePath: first.databasePath, env: { OWNER_PASSWORD: 'the old orchard gate' } })
    for (const [where, headers] of [
      ['here', {}],
      ['elsewhere', { 'X-Forwarded-For': '203.0.113.9' }],
    ] as const) {
      const page = await rawRequest(server.url, { method: 'GET', path: '/claim', headers })
      expect(page.status, where).toBe(410)
      expect(page.text, where).toContain('The site is claimed already: its owners sign in.')
      expect(page.text, where).not.toContain('npm run claim')
      expect(page.text, where).not.toContain('Make me the owner')
    }
    expect((await rawRequest(server.url, { method: 'GET', path })).status).toBe(410)
    expect((await claim(server, path, claimBody('Mallory', 'm@evil.example'))).status).toBe(410)
    expect((await claim(server, '/claim', claimBody('Mallory', 'm@evil.example'))).status).toBe(410)
    const owner = await signInAs(server.url, '', 'the old orchard gate')
    const inbox = await rawRequest(server.url, { method: 'GET', path: '/farm-sales', headers: { Cookie: owner } })
    expect(inbox.status).toBe(200)
    expect(inbox.text).not.toContain('claim-note')
    expect(inbox.text).not.toContain('npm run claim')
    expect((await runClaim(server)).stderr).toContain('claim: the site is claimed already')
    expect(readRows(server.databasePath, 'SELECT name, email FROM team')).toEqual([{ name: 'Owner', email: null }])
  })
})

describe('two claims at once', () => {
  it('make one owner: the link’s and the machine’s, or two from the machine, never one after the other on the same account', async () => {
    for (const second of ['link', 'machine'] as const) {
      const server = await serve({})
      const path = await linkPath(server)
      const [byLink, byMachine, again] = await Promise.all([
        claim(server, path, claimBody('Alex Meadow', 'alex@farm.example')),
        claim(server, '/claim', claimBody('Mallory Local', 'mallory@evil.example', 'moles under the old barn')),
        second === 'link'
          ? claim(server, path, claimBody('Mel Stranger', 'mel@evil.example', 'crows on the hay barn'))
          : claim(server, '/claim', claimBody('Mel Stranger', 'mel@evil.example', 'crows on the hay barn')),
      ])
      const answers = [byLink, byMachine, again]
      expect(answers.map((answer) => answer.status).sort(), second).toEqual([302, 410, 410])
      const winner = answers.findIndex((answer) => answer.status === 302)
      const [name, email] = [
        ['Alex Meadow', 'alex@farm.example'],
        ['Mallory Local', 'mallory@evil.example'],
        ['Mel Stranger', 'mel@evil.example'],
      ][winner]!
      expect(team(server), second).toEqual([{ id: 1, name, email, role: 'owner' }])
      const session = cookieOf(answers[winner]!)
      expect((await fetch(`${server.url}/api/submissions`, { headers: { Cookie: session } })).status).toBe(200)
      expect(readRows(server.databasePath, "SELECT count(*) AS n FROM activity WHERE kind = 'person-joined'")).toEqual([
        { n: 1 },
      ])
      await server.stop()
    }
  })
})

describe('the claim link in the log', () => {
  it('is left out however its path is spelled, and when a claim fails on a locked database', async () => {
    const server = await serve({})
    const path = await linkPath(server)
    const token = path.split('/').pop()!
    const spellings = [
      `/set-%75p/${token}`,
      `/set%2Dup/${token}`,
      `/SET-UP/${token}`,
      `/./set-up/${token}`,
      `/x/../set-up/${token}`,
      `/%2Fset-up/${token}`,
      `//set-up/${token}`,
      `/set-up//${token}`,
      `/set-up/%${token}`,
    ]
    for (const spelling of spellings) await rawRequest(server.url, { method: 'GET', path: spelling })
    // Another program holds the database's lock longer than a write waits (5 s): the claim fails.
    const holder = new Sqlite(server.databasePath)
    holder.exec('BEGIN IMMEDIATE')
    const failed = await claim(server, path, claimBody('Alex Meadow', 'alex@farm.example'))
    holder.exec('ROLLBACK')
    holder.close()
    expect(failed.status).toBe(500)
    await expect.poll(() => server.output()).toContain('database is locked')
    const lines = server.output().split('\n')
    expect(lines.filter((line) => line.includes(token))).toEqual([])
    expect(server.output()).toContain('"path":"/set-up/…"')
    // The link still works: the failed claim changed nothing.
    expect((await claim(server, path, claimBody('Alex Meadow', 'alex@farm.example'))).status).toBe(302)
  })
})

describe('npm run claim', () => {
  it('says what is wrong before the site ever started and while the database stays locked, and run twice leaves one link', async () => {
    const server = await serve({})
    const never = await runClaim(server, { DATABASE_PATH: `${server.databasePath}-never-started` })
    expect(never.failed).toBe(true)
    expect(never.link).toBeNull()
    expect(never.stderr).toContain('start the site first (or set DATABASE_PATH)')
    // Another program holds the lock longer than the command waits (5 s).
    const holder = new Sqlite(server.databasePath)
    holder.exec('BEGIN IMMEDIATE')
    const locked = await runClaim(server)
    holder.exec('ROLLBACK')
    holder.close()
    expect(locked.failed).toBe(true)
    expect(locked.link).toBeNull()
    expect(locked.stderr.trim()).toBe(
      'claim: the database is busy (a backup, or another program writing to it): try again in a moment.',
    )
    // Two at once: each printed a link, and only one of them works.
    const [one, two] = await Promise.all([runClaim(server), runClaim(server)])
    const working = await Promise.all(
      [one.link!, two.link!].map(async (link) => (await fetch(link.replace('localhost', '127.0.0.1'))).status),
    )
    expect(working.sort()).toEqual([200, 410])
    expect(readRows(server.databasePath, 'SELECT count(*) AS n FROM claim_links')).toEqual([{ n: 1 }])
  })
})

describe('the welcome form of the owner OWNER_PASSWORD made', () => {
  it('changes only the sender’s own name and address, and sends them on only to a path of this site', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: 'the old orchard gate', TRUST_PROXY: 'loopback' } })
    const first = await signInAs(server.url, '', 'the old orchard gate')
    const helper = await addPerson(server.url, first, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
    const second = await addPerson(server.url, first, { name: 'Ann Orchard', email: 'ann@farm.example', role: 'owner' })
    const welcome = (cookie: string, fields: Record<string, string>, method = 'POST', query = '') =>
      rawRequest(server.url, {
        method,
        path: `/farm-sales/welcome${query}`,
        headers: { ...form, Cookie: cookie, ...fromSomewhere() },
        body: new URLSearchParams(fields).toString(),
      })
    const elsewhere = [
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
    ]
    for (const [cookie, name, others] of [
      [helper, 'Sam', 'ann@farm.example'],
      [second, 'Ann', 'sam@farm.example'],
    ] as const) {
      for (const then of elsewhere) {
        const sent = await welcome(cookie, { id: '1', name, email: `${name.toLowerCase()}@farm.example`, then })
        expect(sent.status, then).toBe(303)
        expect(sent.headers.location, then).toBe('/farm-sales')
      }
      const taken = await welcome(cookie, { name, email: others }, 'POST', '?_data=routes%2Ffarm-sales_.welcome')
      expect(taken.status).toBe(409)
    }
    for (const method of ['PUT', 'PATCH', 'DELETE'])
      expect((await welcome(helper, {}, method)).status, method).toBe(405)
    const page = await rawRequest(server.url, {
      method: 'GET',
      path: `/farm-sales/welcome?redirectTo=${encodeURIComponent('//evil.example')}`,
      headers: { Cookie: helper, ...fromSomewhere() },
    })
    expect(page.status).toBe(302)
    expect(page.headers.location).toBe('/farm-sales')
    expect(readRows(server.databasePath, 'SELECT id, name, email FROM team ORDER BY id')).toEqual([
      { id: 1, name: 'Owner', email: null },
      { id: 2, name: 'Sam', email: 'sam@farm.example' },
      { id: 3, name: 'Ann', email: 'ann@farm.example' },
    ])
    // The owner it is for: given once, then signing in with it.
    const given = await welcome(first, { name: 'Alex Meadow', email: 'alex@farm.example', then: '//evil.example' })
    expect(given.headers.location).toBe('/farm-sales')
    await signInAs(server.url, 'alex@farm.example', 'the old orchard gate')
  })

  it('is no way in while the site is unclaimed', async () => {
    const server = await serve({})
    const sent = await claim(server, '/farm-sales/welcome', 'name=Mallory&email=m%40evil.example')
    expect(sent.status).toBe(403)
    expect(team(server)).toEqual(unclaimed)
  })
})
