// The owner is mailed about every lead, through a real SMTP server on loopback: the right
// addresses and words, never spam, exactly once across a crash, and a burst folded into digests.
import Sqlite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { freePort, tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const owners = 'owner@farm.example, partner@farm.example'
const mailServers: MailServer[] = []

afterEach(async () => {
  for (const mail of mailServers.splice(0)) await mail.close()
})
// Registered after the mail servers' hook, so it runs before it: the sites stop first.
const serve = serverPerTest('SIGKILL')

const site = (env: Record<string, string>, databasePath?: string) =>
  serve({ env: { NOTIFY_EMAIL: owners, ...env }, databasePath })
async function mailServer(options: Parameters<typeof startMailServer>[0] = {}) {
  const mail = await startMailServer(options)
  mailServers.push(mail)
  return mail
}

async function post(server: RunningServer, body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as { data?: { id: number; analysis: Analysed } } }
}
type Analysed = { urgency: { level: string }; products: string[]; intents: string[] } | null

function outboxRows(databasePath: string) {
  const sqlite = new Sqlite(databasePath, { readonly: true })
  try {
    return sqlite
      .prepare("SELECT submission_id, state AS status FROM deliveries WHERE kind = 'owner-mail' ORDER BY id")
      .all()
  } finally {
    sqlite.close()
  }
}

const lead = {
  name: 'Ann Baker',
  email: 'ann.baker@example.com',
  message: 'Urgent please: could I order two dozen eggs and a jar of honey for tomorrow morning?',
}

/**
 * Restarted after Ann's lead was mailed, the site owes it no more. The control: a new lead is
 * mailed, after the start's round, which would have mailed Ann's again had it still been owed.
 */
async function expectOwedNoMore(restarted: RunningServer, mail: MailServer) {
  expect(restarted.output()).toMatch(/"unsent":0/)
  expect((await post(restarted, { ...lead, name: 'Bea Cole', message: 'Any pears this week?' })).status).toBe(201)
  await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBe(2)
  expect(mail.mails.map((sent) => sent.subject)).toEqual(['[Urgent] New lead from Ann Baker', 'New lead from Bea Cole'])
}

describe('mail to the owner', () => {
  it('sends each lead to every owner address, with Reply-To the visitor, the analysis and a link to its card', async () => {
    const mail = await mailServer()
    const server = await site({ SMTP_URL: mail.url, PUBLIC_URL: 'https://farm.example/' })
    const { status, body } = await post(server, lead)
    expect(status).toBe(201)
    const stored = body.data!
    await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBe(1)
    const [sent] = mail.mails
    expect(sent!.to).toMatchObject({
      value: [{ address: 'owner@farm.example' }, { address: 'partner@farm.example' }],
    })
    // From the farm by name (the shipped FARM_NAME), though NOTIFY_FROM names none: before, no name.
    expect(sent!.from?.value).toEqual([{ address: 'owner@farm.example', name: 'Willow Creek Farm' }])
    expect(sent!.replyTo?.value).toEqual([{ address: 'ann.baker@example.com', name: 'Ann Baker' }])
    const urgent = stored.analysis?.urgency.level === 'high'
    expect(urgent).toBe(true)
    expect(sent!.subject).toBe('[Urgent] New lead from Ann Baker')
    expect(sent!.text).toContain(lead.message)
    expect(sent!.text).toContain(`Products: ${stored.analysis!.products.join(', ')}`)
    expect(sent!.text).toContain('Urgency: high')
    expect(stored.analysis!.products).toContain('eggs')
    const link = `https://farm.example/farm-sales?before=${stored.id + 1}#submission-${stored.id}`
    expect(sent!.text).toContain(link)
    expect(sent!.html).toContain(`href="${link}"`)
    // A whole document with its title, and said to be automatic so no out-of-office answers it.
    expect(sent!.html).toMatch(
      /^<!doctype html><html lang="en"><head><meta charset="utf-8"><title>\[Urgent\] New lead from Ann Baker<\/title>/,
    )
    expect(sent!.headers.get('auto-submitted')).toBe('auto-generated')
    // Marked sent once the site has heard the mail server's 250, a moment after the mail arrived.
    await expect.poll(() => outboxRows(server.databasePath)).toEqual([{ submission_id: stored.id, status: 'sent' }])
  })

  it('names the sender as NOTIFY_FROM says, encoded when it holds a comma or letters beyond ASCII', async () => {
    const mail = await mailServer()
    const server = await site({ SMTP_URL: mail.url, NOTIFY_FROM: '"Ferme du Château, Ltd" <ferme@chateau.example>' })
    expect((await post(server, lead)).status).toBe(201)
    await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBe(1)
    expect(mail.mails[0]!.from?.value).toEqual([{ address: 'ferme@chateau.example', name: 'Ferme du Château, Ltd' }])
    const line = mail.mails[0]!.headerLines.find((header) => header.key === 'from')!.line
    expect(line).toMatch(/^From: =\?UTF-8\?[QB]\?/)
    expect(line).not.toContain('Château')
  })

  it('never mails spam: not what the fill-time trap or the honeypot caught, not what the analysis set aside', async () => {
    const mail = await mailServer()
    // The shipped fill time (tests/support sets 0), so a form sent at once walks into the trap.
    const server = await site({ SMTP_URL: mail.url, MIN_FILL_SECONDS: '3' })
    const home = await (await fetch(server.url)).text()
    const formToken = /name="formToken" value="([^"]+)"/.exec(home)?.[1]
    expect(formToken).toBeTruthy()
    expect((await post(server, { ...lead, name: 'Too Fast', formToken })).status).toBe(202)
    expect((await post(server, { ...lead, name: 'Honey Pot', website: 'https://spam.example' })).status).toBe(202)
    const spammy = 'BUY CHEAP FOLLOWERS NOW!!! http://a.example http://b.example http://c.example CLICK HERE FREE MONEY'
    expect((await post(server, { ...lead, name: 'Spam Wave', message: spammy })).status).toBe(202)
    expect((await post(server, { ...lead, name: 'Real Customer', message: 'Do you sell raw milk?' })).status).toBe(201)
    await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBe(1)
    expect(mail.mails[0]!.subject).toBe('New lead from Real Customer')
    // The spam is owed no mail at all, so no restart can ever mail it.
    expect(outboxRows(server.databasePath)).toHaveLength(1)
  })

  it('mails a lead acknowledged while the mail server was down exactly once, across a SIGKILL and restarts', async () => {
    const port = await freePort()
    // Retries start after 1 s instead of 30, so the test sees the retry that reaches the server.
    const env = { SMTP_URL: `smtp://127.0.0.1:${port}`, NOTIFY_RETRY_SECONDS: '1' }
    const databasePath = tempDatabasePath()
    const first = await site(env, databasePath)
    expect((await post(first, lead)).status).toBe(201)
    await expect.poll(() => first.output(), { timeout: 10_000 }).toContain('could not mail the owner')
    first.child.kill('SIGKILL')
    await first.exited

    const second = await site(env, databasePath)
    expect(second.output()).toMatch(/"unsent":1/)
    const mail = await mailServer({ port })
    await expect.poll(() => mail.mails.length, { timeout: 20_000 }).toBe(1)
    expect(mail.mails[0]!.subject).toContain('New lead from Ann Baker')

    // Accepted once, marked sent: a restart finds nothing to send again.
    expect(await second.stop()).toBe(0)
    await expectOwedNoMore(await site(env, databasePath), mail)
  })

  it('sends a mail on its way at SIGTERM exactly once: the stop waits for the server’s answer and marks it', async () => {
    let release = () => {}
    const answered = new Promise<void>((resolve) => (release = resolve))
    let holding = 0
    // The mail server has the whole message and holds its answer until the site is stopping.
    const mail = await mailServer({ hold: () => (holding++, answered) })
    const databasePath = tempDatabasePath()
    const first = await site({ SMTP_URL: mail.url }, databasePath)
    const { body } = await post(first, lead)
    await expect.poll(() => holding, { timeout: 10_000 }).toBe(1)
    first.child.kill('SIGTERM')
    await expect.poll(() => first.output()).toContain('"msg":"stopping"')
    release()
    expect((await first.exited).code).toBe(0)
    expect(mail.mails.map((sent) => sent.subject)).toEqual(['[Urgent] New lead from Ann Baker'])
    expect(outboxRows(databasePath)).toEqual([{ submission_id: body.data!.id, status: 'sent' }])

    await expectOwedNoMore(await site({ SMTP_URL: mail.url }, databasePath), mail)
  })

  it('folds a burst of 30 leads into at most 10 mails that name every lead exactly once', async () => {
    const mail = await mailServer()
    // A digest goes out at most once per window; the shipped window is ten minutes, which a
    // test cannot wait for, so it is two seconds here. The threshold keeps its default (3).
    const server = await site({ SMTP_URL: mail.url, NOTIFY_DIGEST_SECONDS: '2' })
    const names = Array.from({ length: 30 }, (_, n) => `Buyer ${n + 1} Smith`)
    const send = async (name: string) =>
      (await post(server, { ...lead, name, message: `Do you have apples this week? (${name})` })).status
    for (const name of names.slice(0, 3)) expect(await send(name)).toBe(201)
    // The rest at once, as a burst comes: sent one by one, a busy machine spread them over more windows.
    expect(await Promise.all(names.slice(3).map(send))).toEqual(names.slice(3).map(() => 201))
    const mentions = (name: string) =>
      mail.mails.reduce((sum, sent) => sum + (sent.text ?? '').split(`${name} <`).length - 1, 0)
    await expect.poll(() => names.every((name) => mentions(name) > 0), { timeout: 20_000 }).toBe(true)
    // Every lead is marked sent once its mail was taken, so none is owed and none can be mailed twice.
    await expect
      .poll(() => new Set(outboxRows(server.databasePath).map((row) => (row as { status: string }).status)), {
        timeout: 10_000,
      })
      .toEqual(new Set(['sent']))
    expect(mail.mails.length).toBeLessThanOrEqual(10)
    for (const name of names) expect(mentions(name), name).toBe(1)
    expect(mail.mails.slice(0, 3).map((sent) => sent.subject)).toEqual(
      names.slice(0, 3).map((name) => `New lead from ${name}`),
    )
    // Past the first three, leads wait for digests; once a window has passed, the count starts again.
    expect(mail.mails[3]!.subject).toMatch(/^\d+ new leads?$/)
  })

  it('says once at start that no mail is sent when SMTP_URL or NOTIFY_EMAIL is missing', async () => {
    const server = await serve()
    expect(server.output().match(/the owner is not mailed about new leads/g)).toHaveLength(1)
  })
})
