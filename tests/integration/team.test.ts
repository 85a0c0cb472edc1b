// The farm’s team on the real server: the first owner from OWNER_PASSWORD adds people by
// invitation; each signs in with their own password and role; a helper works the inbox and is
// refused the owner's doors with 403; removing a person or changing their role ends their sessions,
// live sockets and phones at once; each person chooses what they are told of; who did what shows.
// Every server here runs with TRUST_PROXY=loopback so each sign-in can come from its own address:
// the shipped limit of 5 sign-ins a minute per address is tested in tests/security/team.test.ts.
import Sqlite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { readRows } from '#tests/support/database'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { rawRequest } from '#tests/support/raw-request'
import { startPushService, type PushService } from '#tests/support/push-service'
import { serverPerTest } from '#tests/support/server-per-test'
import { freePort, type RunningServer } from '#tests/support/server'
import { addPerson, fromSomewhere, invite, join, signInAs, teamForm } from '#tests/support/team'

const ownerPassword = 'the old orchard gate'
const serve = serverPerTest()
let push: PushService
let mail: MailServer

beforeAll(async () => {
  push = await startPushService()
  mail = await startMailServer()
})
afterAll(async () => {
  await push.close()
  await mail.close()
})

async function site(env: Record<string, string> = {}, port?: number) {
  const server = await serve({
    env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback', ...env },
    ...(port ? { port } : {}),
  })
  return { server, owner: await signInAs(server.url, '', ownerPassword) }
}

async function call(server: RunningServer, cookie: string, path: string, method = 'GET', body?: unknown) {
  const answer = await fetch(`${server.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      Cookie: cookie,
      Origin: server.url,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await answer.text()
  return { status: answer.status, text, location: answer.headers.get('location') }
}

async function postLead(server: RunningServer, email = 'ann@example.com') {
  const answer = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Ann Baker', email, message: 'Do you have duck eggs this week? Two dozen please.' }),
  })
  expect(answer.status).toBe(201)
  return ((await answer.json()) as { data: { id: number } }).data.id
}

function liveSocket(server: RunningServer, cookie: string) {
  const socket = new WebSocket(server.wsUrl, { headers: { Cookie: cookie, Origin: server.url } })
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)))
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('unexpected-response', (_req, res) => reject(new Error(`live link answered ${res.statusCode}`)))
  })
  return { opened, closed }
}

const helperRefusal = (what: string) => `Only an owner may ${what}; you are signed in as a helper.`

describe('people and roles', () => {
  it('an owner adds a helper by invitation, once; the helper works the inbox and is refused every owner’s door with 403', async () => {
    const { server, owner } = await site()
    const token = await invite(server.url, owner, { name: 'Sam Field', email: 'Sam@Farm.example', role: 'helper' })
    // The link shows whom it is for, and refuses a password too short or too common, changing nothing.
    const page = await rawRequest(server.url, { method: 'GET', path: `/join/${token}` })
    expect(page.status).toBe(200)
    expect(page.text).toContain('Welcome, Sam Field')
    expect(page.text).toContain('sam@farm.example')
    for (const [password, words] of [
      ['short one', 'Use at least 12 characters'],
      ['qwerty123456', 'one of the commonest'],
      ['sam field rows', 'holds your name or address'],
    ]) {
      const refused = await join(server.url, token, password!)
      expect(refused.status).toBe(400)
      expect(refused.text).toContain(words)
    }
    const joined = await join(server.url, token, 'beans along the fence')
    expect(joined.status).toBe(302)
    // Once only.
    const again = await rawRequest(server.url, { method: 'GET', path: `/join/${token}` })
    expect(again.status).toBe(410)
    expect(again.text).toContain('That invitation link has been used.')
    expect((await join(server.url, token, 'another long password')).status).toBe(410)

    const helper = await signInAs(server.url, 'sam@farm.example', 'beans along the fence')
    const id = await postLead(server)
    expect((await call(server, helper, '/api/submissions')).status).toBe(200)
    const marked = await call(server, helper, `/api/submissions/${id}`, 'PATCH', { status: 'handled' })
    expect(marked.status).toBe(200)
    const live = liveSocket(server, helper)
    await live.opened

    const apiDoors: Array<[string, string, string]> = [
      ['GET', '/api/backup', 'download a backup'],
      ['GET', '/api/submissions.csv', 'export submissions'],
      ['DELETE', `/api/submissions/${id}`, 'delete submissions'],
      ['DELETE', '/api/spam', 'empty the spam folder'],
      ['GET', '/api/people?email=ann%40example.com', "export a person's data"],
      ['DELETE', '/api/people?email=ann%40example.com', 'forget a person'],
      ['GET', '/api/settings', 'read the settings'],
      ['POST', '/api/updates', 'send updates'],
      ['GET', '/api/updates/1', 'read the updates'],
      ['GET', '/api/updates/audience', 'read the updates'],
      ['GET', '/farm-sales/updates/returned/1', 'read what came back'],
      ['PATCH', '/api/settings', 'change the settings'],
      // Other spellings reach the same guard.
      ['GET', '/api//backup', 'download a backup'],
      ['GET', '/API/backup', 'download a backup'],
      ['GET', '/api/submissions%2Ecsv', 'export submissions'],
      ['DELETE', `/api/submissions/${id}/`, 'delete submissions'],
    ]
    for (const [method, path, what] of apiDoors) {
      const answer = await call(
        server,
        helper,
        path,
        method,
        method === 'PATCH' ? { FARM_NAME: 'Mine now' } : undefined,
      )
      expect(answer.status, `${method} ${path}`).toBe(403)
      expect(JSON.parse(answer.text), `${method} ${path}`).toEqual({ error: helperRefusal(what) })
    }
    const pageDoors: Array<[string, string]> = [
      ['/farm-sales/settings', 'change the farm’s settings'],
      ['/farm-sales/team', 'change the team'],
      ['/farm-sales/activity', 'read the activity log'],
      ['/farm-sales/mail', 'set up the farm’s mail'],
      ['/farm-sales/saved-replies', 'write the saved replies'],
      ['/farm-sales/updates', 'send updates'],
      ['/farm%2Dsales/team', 'change the team'],
      ['/farm-sales/activity/', 'read the activity log'],
    ]
    for (const [path, what] of pageDoors) {
      const answer = await call(server, helper, path)
      expect(answer.status, path).toBe(403)
      expect(answer.text.replaceAll('&#x27;', "'"), path).toContain(helperRefusal(what))
    }
    // The no-JavaScript forms: the card's delete and forget, the team's and the settings' forms.
    const forms: Array<[string, Record<string, string>, string]> = [
      ['/farm-sales?index', { intent: 'delete', id: String(id) }, 'delete submissions'],
      ['/farm-sales?index', { intent: 'forget', id: String(id) }, 'forget a person'],
      ['/farm-sales?index', { intent: 'empty-spam' }, 'empty the spam folder'],
      [
        '/farm-sales/team',
        { intent: 'invite', name: 'Eve', email: 'eve@example.com', role: 'owner' },
        'change the team',
      ],
      ['/farm-sales/settings', { section: 'farm', FARM_NAME: 'Mine now' }, 'change the farm’s settings'],
    ]
    for (const [path, fields, what] of forms) {
      const answer = await rawRequest(server.url, {
        path,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: helper, Origin: server.url },
        body: new URLSearchParams(fields).toString(),
      })
      expect(answer.status, `${path} ${fields.intent}`).toBe(403)
      expect(answer.text.replaceAll('&#x27;', "'")).toContain(helperRefusal(what))
    }
    // Nothing changed: the lead is there, handled by the helper; no one new on the team.
    expect(readRows(server.databasePath, 'SELECT id, status FROM submissions')).toEqual([{ id, status: 'handled' }])
    expect(readRows(server.databasePath, 'SELECT name, role FROM team WHERE removed_at IS NULL ORDER BY id')).toEqual([
      { name: 'Owner', role: 'owner' },
      { name: 'Sam Field', role: 'helper' },
    ])
    // The card says who marked it.
    const list = JSON.parse((await call(server, helper, '/api/submissions')).text) as Array<{
      history: Array<{ change: string; by: string }>
    }>
    expect(list[0]!.history).toMatchObject([{ change: 'handled', by: 'Sam Field' }])
  })

  it('refuses an address already on the team, an expired or unknown link, an old link after a new one, and a helper inviting', async () => {
    const { server, owner } = await site()
    await invite(server.url, owner, { name: 'Pat', email: 'pat@farm.example', role: 'helper' })
    const twice = await teamForm(server.url, owner, {
      intent: 'invite',
      name: 'Pat again',
      email: 'PAT@farm.example',
      role: 'owner',
    })
    expect(twice.status).toBe(409)
    expect(JSON.parse(twice.text).problem.error).toBe('pat@farm.example is already on the team.')

    const late = await invite(server.url, owner, { name: 'Lou', email: 'lou@farm.example', role: 'helper' })
    const sqlite = new Sqlite(server.databasePath)
    sqlite
      .prepare(
        "UPDATE invitations SET expires_at = ? WHERE member_id = (SELECT id FROM team WHERE email = 'lou@farm.example')",
      )
      .run(Date.now() - 1)
    sqlite.close()
    const expired = await join(server.url, late, 'a long enough password')
    expect(expired.status).toBe(410)
    expect(expired.text).toContain('more than 7 days old')
    expect((await rawRequest(server.url, { method: 'GET', path: `/join/${'x'.repeat(43)}` })).status).toBe(404)
    expect((await rawRequest(server.url, { method: 'GET', path: '/join/not-a-token' })).status).toBe(404)

    // A new link for Lou: the old one stops working, the new one works.
    const lou = readRows<{ id: number }>(
      server.databasePath,
      "SELECT id FROM team WHERE email = 'lou@farm.example'",
    )[0]!.id
    const renewed = await teamForm(server.url, owner, { intent: 'invite-again', id: String(lou) })
    const link = (JSON.parse(renewed.text) as { invited: { link: string } }).invited.link
    expect((await join(server.url, late, 'a long enough password')).status).toBe(410)
    const helper = await join(server.url, link.slice(link.lastIndexOf('/') + 1), 'a long enough password')
    expect(helper.status).toBe(302)
    const helperCookie = String(helper.headers['set-cookie']).split(';')[0]!
    const byHelper = await teamForm(server.url, helperCookie, {
      intent: 'invite',
      name: 'Eve',
      email: 'eve@x.example',
      role: 'owner',
    })
    expect(byHelper.status).toBe(403)
    expect(readRows(server.databasePath, "SELECT 1 FROM team WHERE email = 'eve@x.example'")).toEqual([])
  })

  it('removing a person ends their sessions, live sockets and phones at once; the last owner cannot go', async () => {
    const { server, owner } = await site({
      NOTIFY_EMAIL: 'owner@farm.example',
      PUSH_HOSTS: push.host,
      NODE_EXTRA_CA_CERTS: push.certificate,
    })
    const helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
    expect((await call(server, helper, '/api/push-subscriptions', 'POST', push.subscription('sam-phone'))).status).toBe(
      201,
    )
    expect(
      (await call(server, owner, '/api/push-subscriptions', 'POST', push.subscription('owner-phone'))).status,
    ).toBe(201)
    const live = liveSocket(server, helper)
    await live.opened
    const sam = readRows<{ id: number }>(
      server.databasePath,
      "SELECT id FROM team WHERE email = 'sam@farm.example'",
    )[0]!.id

    const lastOwner = await teamForm(server.url, owner, { intent: 'remove', id: '1' })
    expect(lastOwner.status).toBe(409)
    expect(JSON.parse(lastOwner.text).problem.error).toBe('Owner is the last owner: make someone else an owner first.')
    const demoted = await teamForm(server.url, owner, { intent: 'role', id: '1', role: 'helper' })
    expect(demoted.status).toBe(409)

    const removed = await teamForm(server.url, owner, { intent: 'remove', id: String(sam) })
    expect(removed.status).toBe(204)
    expect(await live.closed).toBe(1008)
    expect((await call(server, helper, '/api/submissions')).status).toBe(401)
    expect((await call(server, helper, '/farm-sales')).location).toBe('/sign-in?redirectTo=%2Ffarm-sales')
    expect(readRows(server.databasePath, 'SELECT member_id FROM push_subscriptions')).toEqual([{ member_id: 1 }])
    const signIn = await rawRequest(server.url, {
      path: '/sign-in',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...fromSomewhere() },
      body: new URLSearchParams({ email: 'sam@farm.example', password: 'sweet peas by the gate' }).toString(),
    })
    expect(signIn.status).toBe(401)
    // Their name stays on what they did; the address can be invited again.
    expect(readRows(server.databasePath, `SELECT name, email FROM team WHERE id = ${sam}`)).toEqual([
      { name: 'Sam Field', email: null },
    ])
    await invite(server.url, owner, { name: 'Sam again', email: 'sam@farm.example', role: 'helper' })
    expect(readRows(server.databasePath, 'SELECT kind, member_id AS who, detail FROM activity ORDER BY id')).toEqual([
      { kind: 'person-invited', who: 1, detail: 'Invited Sam Field as a helper' },
      { kind: 'person-joined', who: sam, detail: 'Sam Field joined' },
      { kind: 'person-removed', who: 1, detail: 'Removed Sam Field' },
      // Their try after it: the address is no longer the team's.
      { kind: 'sign-in-failed', who: null, detail: 'A wrong password for an address not on the team' },
      { kind: 'person-invited', who: 1, detail: 'Invited Sam again as a helper' },
    ])
  })

  it('removing or demoting an owner ends the invitations they made that are not taken yet', async () => {
    const { server, owner } = await site()
    const bea = await addPerson(server.url, owner, { name: 'Bea', email: 'bea@farm.example', role: 'owner' })
    const forCal = await invite(server.url, bea, { name: 'Cal', email: 'cal@farm.example', role: 'owner' })
    const forDee = await invite(server.url, bea, { name: 'Dee', email: 'dee@farm.example', role: 'helper' })
    const mine = await invite(server.url, owner, { name: 'Eli', email: 'eli@farm.example', role: 'helper' })
    const beaId = readRows<{ id: number }>(
      server.databasePath,
      "SELECT id FROM team WHERE email = 'bea@farm.example'",
    )[0]!.id
    expect((await teamForm(server.url, owner, { intent: 'role', id: String(beaId), role: 'helper' })).status).toBe(204)
    expect((await join(server.url, forCal, 'a long enough password')).status).toBe(410)
    expect((await teamForm(server.url, owner, { intent: 'remove', id: String(beaId) })).status).toBe(204)
    expect((await join(server.url, forDee, 'a long enough password')).status).toBe(410)
    // Links the owner made still work.
    expect((await join(server.url, mine, 'a long enough password')).status).toBe(302)
  })

  it('a new role takes effect at once: the sessions end, and the next sign-in has the new rights', async () => {
    const { server, owner } = await site()
    const helper = await addPerson(server.url, owner, { name: 'Kim', email: 'kim@farm.example', role: 'helper' })
    expect((await call(server, helper, '/api/backup', 'HEAD')).status).toBe(403)
    const live = liveSocket(server, helper)
    await live.opened
    const kim = readRows<{ id: number }>(
      server.databasePath,
      "SELECT id FROM team WHERE email = 'kim@farm.example'",
    )[0]!.id
    expect((await teamForm(server.url, owner, { intent: 'role', id: String(kim), role: 'owner' })).status).toBe(204)
    expect(await live.closed).toBe(1008)
    expect((await call(server, helper, '/api/submissions')).status).toBe(401)
    const again = await signInAs(server.url, 'kim@farm.example', 'sweet peas by the gate')
    expect((await call(server, again, '/api/backup', 'HEAD')).status).toBe(200)
    // Now two owners: the first may become a helper.
    expect((await teamForm(server.url, again, { intent: 'role', id: '1', role: 'helper' })).status).toBe(204)
    expect((await call(server, owner, '/api/submissions')).status).toBe(401)
    expect(
      readRows(server.databasePath, "SELECT detail FROM activity WHERE kind = 'role-changed' ORDER BY id"),
    ).toEqual([{ detail: 'Kim is now an owner' }, { detail: 'Owner is now a helper' }])
  })

  it('sign out everywhere ends every session of theirs, a copied cookie too, and their live sockets', async () => {
    const { server, owner } = await site()
    await addPerson(server.url, owner, { name: 'Jo', email: 'jo@farm.example', role: 'helper' })
    const phone = await signInAs(server.url, 'jo@farm.example', 'sweet peas by the gate')
    const laptop = await signInAs(server.url, 'jo@farm.example', 'sweet peas by the gate')
    const stolen = laptop
    const live = liveSocket(server, phone)
    await live.opened
    // A phone of Jo's (as the push API keeps one): it may be the lost one.
    const sqlite = new Sqlite(server.databasePath)
    sqlite
      .prepare(
        "INSERT INTO push_subscriptions (endpoint, p256dh, auth, created_at, member_id) SELECT 'https://push.example/jo', 'k', 'a', 1, id FROM team WHERE email = 'jo@farm.example'",
      )
      .run()
    sqlite.close()
    const out = await teamForm(server.url, laptop, { intent: 'sign-out-everywhere' }, '/farm-sales/me')
    expect(out.status).toBe(204)
    expect(await live.closed).toBe(1008)
    for (const cookie of [phone, laptop, stolen])
      expect((await call(server, cookie, '/api/submissions')).status).toBe(401)
    expect(readRows(server.databasePath, 'SELECT endpoint FROM push_subscriptions')).toEqual([])
    // The owner's own sessions are untouched.
    expect((await call(server, owner, '/api/submissions')).status).toBe(200)
  })
})

describe('invitations by mail', () => {
  it('starts every invitation link with PUBLIC_URL, whatever address the page was opened at; without it, the page says so first', async () => {
    const port = await freePort()
    const { server, owner } = await site({ PUBLIC_URL: `http://localhost:${port}` }, port)
    const page = await call(server, owner, '/farm-sales/team')
    expect(page.text).not.toContain('Invitation links start with')
    const token = await invite(server.url, owner, { name: 'Robin Hedge', email: 'robin@farm.example', role: 'helper' })
    const answer = await teamForm(server.url, owner, { intent: 'invite-again', id: '2' })
    const { invited } = JSON.parse(answer.text) as { invited: { link: string } }
    expect(server.url).toContain('127.0.0.1')
    expect(invited.link).toMatch(new RegExp(`^http://localhost:${port}/join/[\\w-]+$`))
    expect(token).not.toBe('')

    const without = await site()
    const shown = (await call(without.server, without.owner, '/farm-sales/team')).text
    expect(shown).toContain(`Invitation links start with ${without.server.url}, the address this page is open at.`)
  })

  it('mails the link when mail is set up, from the outbox, and keeps only its hash once it is sent; says so when it cannot', async () => {
    const { server, owner } = await site({
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: 'owner@farm.example',
      FARM_NAME: 'Bramble Hill Farm',
    })
    const answer = await teamForm(server.url, owner, {
      intent: 'invite',
      name: 'Robin Hedge',
      email: 'robin@farm.example',
      role: 'helper',
    })
    const { invited } = JSON.parse(answer.text) as { invited: { link: string; mailed: string } }
    expect(invited.mailed).toBe('robin@farm.example')
    // The outbox sends on its own turn: a loaded machine takes longer than the poll's default second.
    await expect
      .poll(() => mail.mails.filter((each) => each.subject === 'You are invited to Bramble Hill Farm’s inbox').length, {
        timeout: 10_000,
      })
      .toBe(1)
    const sent = mail.mails.find((each) => each.subject === 'You are invited to Bramble Hill Farm’s inbox')!
    expect([sent.to].flat().flatMap((to) => to!.value.map((one) => one.address))).toEqual(['robin@farm.example'])
    expect(sent.text).toContain('Hello Robin Hedge,')
    expect(sent.text).toContain(invited.link)
    // On the farm's clock, UTC until one is chosen, in the site's own words.
    expect(sent.text).toMatch(/It stops working on \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC\. /)
    expect(sent.headers.get('auto-submitted')).toBe('auto-generated')
    // A new person learns which farm it is from: the farm's name, though NOTIFY_FROM names none.
    expect(sent.from?.text).toBe('"Bramble Hill Farm" <owner@farm.example>')
    await expect
      .poll(() => readRows(server.databasePath, "SELECT state FROM deliveries WHERE kind = 'invitation-mail'"))
      .toEqual([{ state: 'sent' }])
    expect(readRows(server.databasePath, 'SELECT mail_link FROM invitations')).toEqual([{ mail_link: null }])
    const token = invited.link.slice(invited.link.lastIndexOf('/') + 1)
    expect((await join(server.url, token, 'hawthorn in the hedge')).status).toBe(302)

    const without = await site()
    const shown = await teamForm(without.server.url, without.owner, {
      intent: 'invite',
      name: 'Lee',
      email: 'lee@farm.example',
      role: 'helper',
    })
    expect((JSON.parse(shown.text) as { invited: { mailed: string | null } }).invited.mailed).toBeNull()
    expect(readRows(without.server.databasePath, "SELECT 1 FROM deliveries WHERE kind = 'invitation-mail'")).toEqual([])
    expect(readRows(without.server.databasePath, 'SELECT mail_link FROM invitations')).toEqual([{ mail_link: null }])
  })
})

describe('an invitation’s mail across a crash', () => {
  it('is delivered exactly once when the site is killed (SIGKILL) while its mail is on its way', async () => {
    // The first mail server takes the mail's bytes and never answers, as a server would that the
    // site's crash cut off; the second, on the same port, answers.
    let held = false
    const cutOff = await startMailServer({
      hold: () => {
        held = true
        return new Promise<void>(() => {})
      },
    })
    const { server, owner } = await site({ SMTP_URL: cutOff.url, NOTIFY_EMAIL: 'owner@farm.example' })
    await invite(server.url, owner, { name: 'Robin Hedge', email: 'robin@farm.example', role: 'helper' })
    await expect.poll(() => held).toBe(true)
    await server.stop('SIGKILL')
    await cutOff.close()
    const answering = await startMailServer({ port: cutOff.port })
    try {
      const again = await serve({
        databasePath: server.databasePath,
        env: { OWNER_PASSWORD: ownerPassword, SMTP_URL: cutOff.url, NOTIFY_EMAIL: 'owner@farm.example' },
      })
      await expect
        .poll(() => readRows(again.databasePath, "SELECT state FROM deliveries WHERE kind = 'invitation-mail'"))
        .toEqual([{ state: 'sent' }])
      expect(answering.mails.map((mail) => mail.subject)).toEqual(['You are invited to Willow Creek Farm’s inbox'])
      expect(cutOff.mails).toEqual([])
    } finally {
      await answering.close()
    }
  })
})

describe('each person’s own notifications', () => {
  it('mails and pushes each lead to each person who wants it, and to no one who turned it off', async () => {
    const { server, owner } = await site({
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: 'owner@farm.example',
      PUSH_HOSTS: push.host,
      NODE_EXTRA_CA_CERTS: push.certificate,
    })
    const helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
    expect((await call(server, helper, '/api/push-subscriptions', 'POST', push.subscription('sam-1'))).status).toBe(201)
    expect((await call(server, owner, '/api/push-subscriptions', 'POST', push.subscription('owner-1'))).status).toBe(
      201,
    )

    await postLead(server, 'first@example.com')
    await expect.poll(() => mail.mails.filter((each) => each.subject?.includes('Ann Baker')).length).toBe(1)
    const first = mail.mails.find((each) => each.subject?.includes('Ann Baker'))!
    expect(
      [first.to]
        .flat()
        .flatMap((to) => to!.value.map((one) => one.address))
        .sort(),
    ).toEqual(['owner@farm.example', 'sam@farm.example'])
    await expect.poll(() => push.received.map((each) => each.phone).sort()).toEqual(['owner-1', 'sam-1'])

    // Sam turns the phone off and keeps the mail; the owner turns the mail off and keeps the phone.
    for (const [cookie, name, fields] of [
      [helper, 'Sam Field', { email: 'sam@farm.example', mail: 'on' }],
      [owner, 'Owner', { email: '', push: 'on' }],
    ] as const) {
      const saved = await teamForm(server.url, cookie, { intent: 'mine', name, ...fields }, '/farm-sales/me')
      expect(saved.status).toBe(204)
    }
    expect(readRows(server.databasePath, 'SELECT name, mail_new_leads, push_new_leads FROM team ORDER BY id')).toEqual([
      { name: 'Owner', mail_new_leads: 0, push_new_leads: 1 },
      { name: 'Sam Field', mail_new_leads: 1, push_new_leads: 0 },
    ])
    const mailsBefore = mail.mails.length
    const secondLead = await postLead(server, 'second@example.com')
    await expect.poll(() => push.received.length).toBe(3)
    expect(push.received.at(-1)!.phone).toBe('owner-1')
    // The first owner has no address of their own: theirs is the farm's NOTIFY_EMAIL, left out now.
    // Once its one mail is marked sent, every mail it made is in: exactly one more.
    await expect
      .poll(() =>
        readRows(
          server.databasePath,
          `SELECT state FROM deliveries WHERE kind = 'owner-mail' AND submission_id = ${secondLead}`,
        ),
      )
      .toEqual([{ state: 'sent' }])
    expect(mail.mails.length).toBe(mailsBefore + 1)
    const second = mail.mails.at(-1)!
    expect([second.to].flat().flatMap((to) => to!.value.map((one) => one.address))).toEqual(['sam@farm.example'])
  })
})

describe('who did it', () => {
  it('names who wrote each reply on its card, and who sent each update', async () => {
    const port = await freePort()
    const { server, owner } = await site(
      {
        SMTP_URL: mail.url,
        NOTIFY_EMAIL: 'owner@farm.example',
        UPDATES: 'true',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
      port,
    )
    const helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
    const id = await postLead(server, 'reply-to-me@example.com')
    const replied = await call(server, helper, `/api/submissions/${id}/replies`, 'POST', {
      text: 'Yes, two dozen on Friday.',
    })
    expect(replied.status, replied.text).toBe(201)
    expect(JSON.parse(replied.text)).toMatchObject({ data: { by: 'Sam Field' } })
    const thread = JSON.parse((await call(server, owner, `/api/submissions/${id}/replies`)).text) as {
      data: Array<{ kind: string; by: string | null }>
    }
    expect(thread.data.filter((reply) => reply.kind === 'reply')).toMatchObject([{ by: 'Sam Field' }])
    const [lead] = JSON.parse((await call(server, owner, '/api/submissions')).text) as Array<{
      replies: Array<{ kind: string; by: string | null }>
    }>
    expect(lead!.replies.filter((reply) => reply.kind === 'reply')).toMatchObject([{ by: 'Sam Field' }])
    // The acknowledgement and other mails of the site's own are no one's.
    expect(lead!.replies.filter((reply) => reply.kind !== 'reply').every((reply) => reply.by === null)).toBe(true)

    const sqlite = new Sqlite(server.databasePath)
    sqlite
      .prepare(
        `INSERT INTO subscribers (email, address_key, name, status, consent, added_by, subscribed_at, created_at) VALUES ('fan@example.com', 'fan@example.com', 'Fan', 'subscribed', 'asked at the stall', 'owner', ?, ?)`,
      )
      .run(Date.now(), Date.now())
    sqlite.close()
    const sent = await call(server, owner, '/api/updates', 'POST', {
      subject: 'Duck eggs are back',
      text: 'Two dozen a week from Friday.',
    })
    expect(sent.status, sent.text).toBe(202)
    const { id: updateId } = JSON.parse(sent.text) as { id: number }
    expect(JSON.parse((await call(server, owner, `/api/updates/${updateId}`)).text)).toMatchObject({ sentBy: 'Owner' })
    const page = await call(server, owner, '/farm-sales/updates')
    expect(page.text).toContain(', by <!-- -->Owner')
  })
})
