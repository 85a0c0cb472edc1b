// The owner sets the site up from the browser: settings kept in the database under the
// environment, which wins; applied without a restart (mail, the farm's name on the live link, the
// webhook); surviving a restart and kill -9; secrets shown only as set, never said back or logged.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { connectLive } from '#tests/support/live-client'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { readRows } from '#tests/support/database'
import { freePort, tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import { postSettingsPage } from '#tests/support/settings-page'

const mailPassword = 'pa55-Wörd:with@odd/chars'
const mailServers: MailServer[] = []
const receivers: Server[] = []

afterEach(async () => {
  for (const mail of mailServers.splice(0)) await mail.close()
  for (const receiver of receivers.splice(0)) {
    receiver.closeAllConnections()
    await new Promise((resolve) => receiver.close(resolve))
  }
})
// Registered after the mail servers' and receivers' hook, so it runs before it: the sites stop first.
const serve = serverPerTest('SIGKILL')

async function site(env: Record<string, string> = {}, databasePath = tempDatabasePath()) {
  const server = await serve({ env: { OWNER_PASSWORD: password, ...env }, databasePath })
  return { server, cookie: await signInAsOwner(server.url, password) }
}

async function mailServer() {
  const mail = await startMailServer({ login: { user: 'farm', password: mailPassword } })
  mailServers.push(mail)
  return mail
}

type State = { key: string; value: string | null; set: boolean; source: string; lockedBy: string | null }

async function settingsOf(server: RunningServer, cookie: string) {
  const response = await fetch(`${server.url}/api/settings`, { headers: { Cookie: cookie } })
  expect(response.status).toBe(200)
  const states = ((await response.json()) as { data: State[] }).data
  return (key: string) => states.find((state) => state.key === key)!
}

async function patch(server: RunningServer, cookie: string, body: unknown) {
  const response = await fetch(`${server.url}/api/settings`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, text: '' }
}

const mailOn = (mail: MailServer, to = 'owner@bramble.example') => ({
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: String(mail.port),
  SMTP_SECURITY: 'offered',
  SMTP_USER: 'farm',
  SMTP_PASSWORD: mailPassword,
  NOTIFY_EMAIL: to,
})

const lead = { name: 'Ann Baker', email: 'ann@example.com', message: 'Could I order two dozen eggs for Saturday?' }
async function postLead(server: RunningServer) {
  const response = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(lead),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: number } }).data.id
}

describe('the settings API', () => {
  it('shows every setting with its value and source; a default stays a default until changed', async () => {
    const { server, cookie } = await site({ FARM_PRODUCT: 'Orchard fruit' })
    const setting = await settingsOf(server, cookie)
    expect(setting('FARM_NAME')).toEqual({
      key: 'FARM_NAME',
      value: 'Willow Creek Farm',
      set: true,
      source: 'default',
      lockedBy: null,
    })
    expect(setting('FARM_PRODUCT')).toMatchObject({
      value: 'Orchard fruit',
      source: 'environment',
      lockedBy: 'FARM_PRODUCT',
    })
    expect(setting('SMTP_PASSWORD')).toEqual({
      key: 'SMTP_PASSWORD',
      value: null,
      set: false,
      source: 'default',
      lockedBy: null,
    })
    expect(setting('SMTP_PORT')).toMatchObject({ value: '587', source: 'default' })
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
  })

  it('sets mail up without a restart: the owner is mailed about the next lead and answers it from its card', async () => {
    const mail = await mailServer()
    const { server, cookie } = await site({ FARM_NAME: 'Bramble Hill Farm' })
    const before = await postLead(server)
    const saved = await patch(server, cookie, mailOn(mail))
    expect(saved.status).toBe(200)
    const setting = await settingsOf(server, cookie)
    expect(setting('SMTP_HOST')).toMatchObject({ value: '127.0.0.1', source: 'settings page' })
    expect(setting('SMTP_PASSWORD')).toEqual({
      key: 'SMTP_PASSWORD',
      value: null,
      set: true,
      source: 'settings page',
      lockedBy: null,
    })
    const after = await postLead(server)
    await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBeGreaterThan(0)
    // The lead kept before mail was set up is not mailed about afterwards; the one after is.
    expect(mail.mails.map((sent) => sent.text ?? '').join('\n')).toContain(lead.message)
    expect(readRows(server.databasePath, "SELECT submission_id FROM deliveries WHERE kind = 'owner-mail'")).toEqual([
      { submission_id: after },
    ])
    const reply = await fetch(`${server.url}/api/submissions/${before}/replies`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ text: 'Yes, Ann: two dozen on Saturday.' }),
    })
    expect(reply.status).toBe(201)
    await expect
      .poll(() => mail.mails.filter((sent) => sent.subject === 'Re: Your message to Bramble Hill Farm').length, {
        timeout: 10_000,
      })
      .toBe(1)
    // The password is in no answer and no log line.
    expect(JSON.stringify(saved.body)).not.toContain(mailPassword)
    expect(server.output()).not.toContain(mailPassword)
    expect(server.output()).not.toContain(encodeURIComponent(mailPassword))
  })

  it('refuses unknown keys, odd bodies and wrong values, changing nothing; each refused field says why', async () => {
    const { server, cookie } = await site()
    expect(await patch(server, cookie, { FARM_NAME: 'Bramble', OWNER_PASSWORD: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'No such setting: OWNER_PASSWORD.' },
    })
    expect(await patch(server, cookie, ['FARM_NAME'])).toMatchObject({ status: 400 })
    expect(await patch(server, cookie, { FARM_NAME: 7 })).toMatchObject({
      status: 400,
      body: { fields: { FARM_NAME: 'Must be text, or null to take the default.' } },
    })
    const wrong = await patch(server, cookie, {
      FARM_NAME: 'Bramble Hill Farm',
      NOTIFY_DIGEST_AFTER: 'lots',
      BACKUP_KEEP: '0',
      PUBLIC_URL: 'farm.example',
      SMTP_PORT: '70000',
    })
    expect(wrong).toMatchObject({
      status: 400,
      body: {
        error: 'Nothing was saved: a value does not hold.',
        fields: {
          NOTIFY_DIGEST_AFTER: 'Must be a whole number from 0 to 1000, not "lots"',
          BACKUP_KEEP: 'Must be a whole number from 1 to 1000, not "0"',
          PUBLIC_URL: 'Must be the site\'s http:// or https:// address, not "farm.example"',
          SMTP_PORT: 'A port from 1 to 65535.',
        },
      },
    })
    expect(await patch(server, cookie, { FARM_NAME: 'a\u0000b' })).toMatchObject({
      status: 400,
      body: { fields: { FARM_NAME: 'Only printable characters, please.' } },
    })
    expect(await patch(server, cookie, { FARM_NAME: 'x'.repeat(501) })).toMatchObject({ status: 400 })
    expect(await patch(server, cookie, { UPDATES: 'true' })).toMatchObject({
      status: 400,
      body: { fields: { UPDATES: 'Needs SMTP_URL and NOTIFY_EMAIL: updates go out by mail' } },
    })
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
    expect((await settingsOf(server, cookie))('FARM_NAME')).toMatchObject({ value: 'Willow Creek Farm' })
  })

  it('a field the environment sets is locked, with the variable’s name, and cannot be changed through the API', async () => {
    const mail = await mailServer()
    const { server, cookie } = await site({
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: 'owner@bramble.example',
      FARM_NAME: 'Bramble',
    })
    const setting = await settingsOf(server, cookie)
    expect(setting('SMTP_HOST')).toMatchObject({ value: '127.0.0.1', source: 'environment', lockedBy: 'SMTP_URL' })
    expect(setting('SMTP_PASSWORD')).toMatchObject({ value: null, source: 'environment', lockedBy: 'SMTP_URL' })
    expect(setting('FARM_NAME')).toMatchObject({ value: 'Bramble', lockedBy: 'FARM_NAME' })
    for (const change of [
      { FARM_NAME: 'Other' },
      { SMTP_PASSWORD: 'x' },
      { SMTP_HOST: 'smtp.example' },
      { FARM_NAME: null },
    ]) {
      expect(await patch(server, cookie, change)).toMatchObject({ status: 409 })
    }
    expect(await patch(server, cookie, { FARM_NAME: 'Other' })).toMatchObject({
      body: { error: "Set in the site's environment (FARM_NAME), so it cannot be changed here." },
    })
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
  })

  it('a setting survives a restart and kill -9, and the environment wins over it after', async () => {
    const databasePath = tempDatabasePath()
    const first = await site({}, databasePath)
    expect(
      (await patch(first.server, first.cookie, { FARM_NAME: 'Bramble Hill Farm', SPAM_RETENTION_DAYS: '7' })).status,
    ).toBe(200)
    await first.server.stop('SIGKILL')
    const second = await site({}, databasePath)
    expect((await settingsOf(second.server, second.cookie))('FARM_NAME')).toMatchObject({
      value: 'Bramble Hill Farm',
      source: 'settings page',
    })
    expect(await (await fetch(second.server.url)).text()).toContain('Bramble Hill Farm')
    await second.server.stop('SIGTERM')
    const third = await site({ FARM_NAME: 'Set By Docker Farm' }, databasePath)
    expect((await settingsOf(third.server, third.cookie))('FARM_NAME')).toMatchObject({
      value: 'Set By Docker Farm',
      source: 'environment',
    })
    expect((await settingsOf(third.server, third.cookie))('SPAM_RETENTION_DAYS')).toMatchObject({ value: '7' })
  })

  it('a stored value the environment later makes wrong is set aside at start, not a reason not to start', async () => {
    const mail = await startMailServer()
    mailServers.push(mail)
    const databasePath = tempDatabasePath()
    const withMail = { SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@bramble.example', PUBLIC_URL: 'https://farm.example' }
    const first = await site(withMail, databasePath)
    expect((await patch(first.server, first.cookie, { UPDATES: 'true' })).status).toBe(200)
    await first.server.stop('SIGTERM')
    // Started again without the mail server that updates need: they are off, and the site says why.
    const again = await site({ PUBLIC_URL: 'https://farm.example' }, databasePath)
    expect((await fetch(`${again.server.url}/healthz`)).status).toBe(200)
    expect(again.server.output()).toContain('set aside a stored setting')
    expect((await settingsOf(again.server, again.cookie))('UPDATES')).toMatchObject({
      source: 'default',
      value: 'false',
    })
    // Set again by the owner, it is theirs: shown, and kept through the next unrelated change.
    expect((await patch(again.server, again.cookie, mailOn(mail))).status).toBe(200)
    expect((await patch(again.server, again.cookie, { UPDATES: 'true' })).status).toBe(200)
    expect((await patch(again.server, again.cookie, { FARM_NAME: 'Bramble Hill Farm' })).status).toBe(200)
    expect((await settingsOf(again.server, again.cookie))('UPDATES')).toMatchObject({
      source: 'settings page',
      value: 'true',
    })
    expect((await fetch(`${again.server.url}/api/updates`, { headers: { Cookie: again.cookie } })).status).toBe(200)
  })

  it('a kept password goes only to the server it was set for: a new host or user means typing it again', async () => {
    const mail = await mailServer()
    const { server, cookie } = await site()
    expect((await patch(server, cookie, mailOn(mail))).status).toBe(200)
    for (const moved of [
      { SMTP_HOST: 'mail.attacker.example' },
      { SMTP_USER: 'someone' },
      { SMTP_PORT: '2525' },
      { SMTP_SECURITY: 'tls' },
    ]) {
      expect(await patch(server, cookie, moved)).toMatchObject({
        status: 400,
        body: { fields: { SMTP_PASSWORD: 'Type it again: it is sent only where it was set for, and that changed.' } },
      })
    }
    const tested = await postSettingsPage(server, cookie, {
      section: 'mail',
      intent: 'test-mail',
      ...mailOn(mail),
      SMTP_HOST: 'localhost',
      SMTP_PASSWORD: '',
    })
    expect(tested.status).toBe(400)
    expect(tested.html).toContain('Type it again: it is sent only where it was set for, and that changed.')
    expect(mail.mails).toHaveLength(0)
    expect((await patch(server, cookie, { NOTIFY_FROM: 'hello@bramble.example' })).status).toBe(200)
    // The page's form as shown, the password left empty: nothing moved, so the kept one is used.
    const asShown = await postSettingsPage(server, cookie, {
      section: 'mail',
      intent: 'test-mail',
      ...mailOn(mail),
      SMTP_PASSWORD: '',
      NOTIFY_FROM: 'hello@bramble.example',
    })
    expect(asShown.html).toContain('Sent a test mail to owner@bramble.example. The mail server took it.')
    expect((await patch(server, cookie, { SMTP_HOST: 'localhost', SMTP_PASSWORD: mailPassword })).status).toBe(200)
    // Emptying the host moves the password nowhere: mail is simply off.
    expect((await patch(server, cookie, { SMTP_HOST: null })).status).toBe(200)
    const secret = `whsec_${randomBytes(32).toString('base64')}`
    expect(
      (await patch(server, cookie, { WEBHOOK_URL: 'https://n8n.bramble.example/hook', WEBHOOK_SECRET: secret })).status,
    ).toBe(200)
    expect(await patch(server, cookie, { WEBHOOK_URL: 'https://hooks.attacker.example/' })).toMatchObject({
      status: 400,
      body: { fields: { WEBHOOK_SECRET: 'Type it again: it is sent only where it was set for, and that changed.' } },
    })
    expect(await patch(server, cookie, { WEBHOOK_URL: 5 })).toMatchObject({ status: 400 })
  })

  it('with the shipped security and port left as shown, a test with the kept password tries the server, not a refusal', async () => {
    const mail = await mailServer()
    const { server, cookie } = await site()
    // STARTTLS and 587 are the defaults: nothing listens there, so the connection's own words come back.
    const saved = await patch(server, cookie, {
      SMTP_HOST: '127.0.0.1',
      SMTP_USER: 'farm',
      SMTP_PASSWORD: mailPassword,
      NOTIFY_EMAIL: 'owner@bramble.example',
    })
    expect(saved.status).toBe(200)
    const tested = await postSettingsPage(server, cookie, {
      section: 'mail',
      intent: 'test-mail',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '587',
      SMTP_SECURITY: 'starttls',
      SMTP_USER: 'farm',
      SMTP_PASSWORD: '',
      NOTIFY_EMAIL: 'owner@bramble.example',
      NOTIFY_FROM: '',
    })
    expect(tested.html).not.toContain('Type it again')
    expect(tested.html.replace(/<!-- -->/g, '')).toContain(
      'Nothing answered at 127.0.0.1, port 587: check the server’s name and port.',
    )
    // The form held nothing that was not saved already: the failure does not say 'Not saved'.
    expect(tested.html).not.toContain('Not saved')
    expect(mail.mails).toHaveLength(0)
  })

  it('what failed with the old settings is sent at once with the new: a mail waiting on a wrong password', async () => {
    const mail = await mailServer()
    const { server, cookie } = await site()
    expect((await patch(server, cookie, { ...mailOn(mail), SMTP_PASSWORD: 'not-it' })).status).toBe(200)
    await postLead(server)
    // Tried once with the wrong password, it waits NOTIFY_RETRY_SECONDS (30 s) and longer.
    await expect
      .poll(() => readRows(server.databasePath, "SELECT state FROM deliveries WHERE kind = 'owner-mail'"), {
        timeout: 10_000,
      })
      .toEqual([{ state: 'retrying' }])
    expect((await patch(server, cookie, { SMTP_PASSWORD: mailPassword })).status).toBe(200)
    await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBe(1)
  })

  it('two changes at once both hold', async () => {
    const { server, cookie } = await site()
    const answers = await Promise.all([
      patch(server, cookie, { FARM_NAME: 'Bramble Hill Farm' }),
      patch(server, cookie, { FARM_PRODUCT: 'Orchard fruit' }),
      patch(server, cookie, { BACKUP_KEEP: '7' }),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    const setting = await settingsOf(server, cookie)
    expect([setting('FARM_NAME').value, setting('FARM_PRODUCT').value, setting('BACKUP_KEEP').value]).toEqual([
      'Bramble Hill Farm',
      'Orchard fruit',
      '7',
    ])
    expect(await (await fetch(server.url)).text()).toContain('Orchard fruit')
  })

  it('tells every open inbox when the farm is named anew, and the next page has the name', async () => {
    const { server, cookie } = await site()
    const live = await connectLive(server.wsUrl, { Cookie: cookie })
    expect((await patch(server, cookie, { FARM_NAME: 'Bramble Hill Farm' })).status).toBe(200)
    expect(await live.next()).toEqual({ type: 'FARM_RENAMED', name: 'Bramble Hill Farm', counts: [] })
    live.close()
    expect(await (await fetch(server.url)).text()).toContain('Bramble Hill Farm')
  })
})

describe('who may change the settings', () => {
  it('without OWNER_PASSWORD nobody may: the page and the API say what to set', async () => {
    const server = await serve({})
    const answer = await fetch(`${server.url}/api/settings`)
    expect(answer.status).toBe(403)
    expect(await answer.json()).toEqual({
      error:
        'To set the site up from here, claim the site first: the settings hold the mail server’s password, so only a signed-in owner may see or change them.',
    })
    const changed = await fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ FARM_NAME: 'Taken' }),
    })
    expect(changed.status).toBe(403)
    const page = await fetch(`${server.url}/farm-sales/settings`)
    expect(await page.text()).toContain('To set the site up from here, claim the site first')
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
  })

  it('a stranger, a signed-out owner and a cross-site form change nothing', async () => {
    const { server, cookie } = await site()
    expect((await patch(server, '', { FARM_NAME: 'Taken' })).status).toBe(401)
    expect((await fetch(`${server.url}/api/settings`)).status).toBe(401)
    const stranger = await postSettingsPage(server, '', { section: 'farm', intent: 'save', FARM_NAME: 'Taken' })
    expect(stranger.status).toBe(302)
    expect(stranger.location).toMatch(/^\/sign-in\?redirectTo=/)
    const crossSite = await postSettingsPage(
      server,
      cookie,
      { section: 'farm', intent: 'save', FARM_NAME: 'Taken' },
      'https://evil.example',
    )
    expect(crossSite.status).toBe(403)
    const signOut = await fetch(`${server.url}/sign-out`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: server.url },
      redirect: 'manual',
    })
    expect(signOut.status).toBeLessThan(400)
    expect((await patch(server, cookie, { FARM_NAME: 'Taken' })).status).toBe(401)
    expect(
      (await postSettingsPage(server, cookie, { section: 'farm', intent: 'save', FARM_NAME: 'Taken' })).status,
    ).toBe(302)
    for (const method of ['PUT', 'POST', 'DELETE']) {
      const other = await fetch(`${server.url}/api/settings`, {
        method,
        headers: { 'Content-Type': 'application/json', Cookie: await signInAsOwner(server.url, password) },
        body: JSON.stringify({ FARM_NAME: 'Taken' }),
      })
      expect(other.status).toBe(405)
    }
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
  })
})

describe('the settings page', () => {
  it('saves a section with JavaScript off: 303 back to it, saying so', async () => {
    const { server, cookie } = await site()
    const saved = await postSettingsPage(server, cookie, {
      section: 'notifications',
      intent: 'save',
      NOTIFY_DIGEST_AFTER: '5',
      NOTIFY_DIGEST_SECONDS: '600',
    })
    expect(saved).toMatchObject({ status: 303, location: '/farm-sales/settings?saved=notifications#notifications' })
    // The window left at its default stays the default: only what changed is stored.
    expect(readRows(server.databasePath, 'SELECT key, value FROM farm_settings')).toEqual([
      { key: 'NOTIFY_DIGEST_AFTER', value: '5' },
    ])
    const page = await (
      await fetch(`${server.url}/farm-sales/settings?saved=notifications`, { headers: { Cookie: cookie } })
    ).text()
    expect(page).toContain('Saved. It is used from the next mail, push or page.')
  })

  it('a wrong mail password is said in words, not saved yet, never the password; Remove takes the one account’s password from both halves', async () => {
    const mail = await mailServer()
    const { server, cookie } = await site()
    const wrong = 'not-the-right-one-123'
    const tested = await postSettingsPage(server, cookie, {
      section: 'mail',
      intent: 'test-mail',
      ...mailOn(mail),
      SMTP_PASSWORD: wrong,
    })
    expect(tested.status).toBe(400)
    const said = tested.html.replace(/<!-- -->/g, '')
    expect(said).toContain(
      'Sending: </strong>The server refused the user name or password: check both; many providers need an app password made for the site.',
    )
    expect(said).toContain('Reading: </strong>No server to read: answers and bounces stay in your mail program.')
    expect(said).toContain('Not saved yet.')
    expect(tested.html).not.toContain(wrong)
    expect(server.output()).not.toContain(wrong)
    expect(mail.mails).toHaveLength(0)
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])

    const right = await postSettingsPage(server, cookie, { section: 'mail', intent: 'test-mail', ...mailOn(mail) })
    expect(right.status).toBe(200)
    expect(right.html).toContain('Sent a test mail to owner@bramble.example. The mail server took it.')
    expect(right.html).not.toContain(mailPassword)
    expect(mail.mails.map((sent) => sent.subject)).toEqual(['A test mail from Willow Creek Farm'])
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])

    // The same test of what is saved already: nothing is to be saved, so nothing says 'Not saved yet'.
    expect((await postSettingsPage(server, cookie, { section: 'mail', intent: 'save', ...mailOn(mail) })).status).toBe(
      303,
    )
    const again = await postSettingsPage(server, cookie, {
      section: 'mail',
      intent: 'test-mail',
      ...mailOn(mail),
      SMTP_PASSWORD: '',
    })
    expect(again.status).toBe(200)
    expect(again.html).not.toContain('Not saved')
    const page = await (await fetch(`${server.url}/farm-sales/settings`, { headers: { Cookie: cookie } })).text()
    expect(page).not.toContain(mailPassword)
    // Left empty, the password stays as it was; Remove takes it away.
    expect(
      (await postSettingsPage(server, cookie, { section: 'mail', intent: 'save', ...mailOn(mail), SMTP_PASSWORD: '' }))
        .status,
    ).toBe(303)
    expect(readRows(server.databasePath, "SELECT value FROM farm_settings WHERE key = 'SMTP_PASSWORD'")).toEqual([
      { value: mailPassword },
    ])
    // With a reading server on the form, the one password is the reading half's too; Remove takes both.
    const reading = { IMAP_HOST: 'localhost', IMAP_PORT: '993', IMAP_SECURITY: 'tls' }
    expect(
      (await postSettingsPage(server, cookie, { section: 'mail', intent: 'save', ...mailOn(mail), ...reading })).status,
    ).toBe(303)
    expect(
      readRows(server.databasePath, "SELECT key, value FROM farm_settings WHERE key LIKE 'IMAP_%' ORDER BY key"),
    ).toEqual([
      { key: 'IMAP_HOST', value: 'localhost' },
      { key: 'IMAP_PASSWORD', value: mailPassword },
      { key: 'IMAP_USER', value: 'farm' },
    ])
    const fromUnder = await postSettingsPage(server, cookie, { section: 'mail', intent: 'remove:SMTP_PASSWORD' })
    expect(fromUnder.status).toBe(400)
    expect(fromUnder.html).toContain(
      'Reading mail signs in with it too: empty the reading server first, then remove it.',
    )
    expect(
      (
        await postSettingsPage(server, cookie, {
          section: 'mail',
          intent: 'save',
          ...mailOn(mail),
          SMTP_PASSWORD: '',
          IMAP_HOST: '',
        })
      ).status,
    ).toBe(303)
    expect((await postSettingsPage(server, cookie, { section: 'mail', intent: 'remove:SMTP_PASSWORD' })).status).toBe(
      303,
    )
    expect(
      readRows(server.databasePath, "SELECT key FROM farm_settings WHERE key IN ('SMTP_PASSWORD', 'IMAP_PASSWORD')"),
    ).toEqual([])
    expect(server.output()).not.toContain(mailPassword)
  })

  it('turning updates on says what is missing: mail, then an https PUBLIC_URL', async () => {
    const mail = await mailServer()
    const { server, cookie } = await site()
    const noMail = await postSettingsPage(server, cookie, {
      section: 'updates',
      intent: 'save',
      UPDATES: 'true',
      UPDATES_PER_MINUTE: '60',
    })
    expect(noMail.status).toBe(400)
    expect(noMail.html).toContain('Needs SMTP_URL and NOTIFY_EMAIL: updates go out by mail')
    expect((await patch(server, cookie, { ...mailOn(mail), PUBLIC_URL: 'http://farm.example' })).status).toBe(200)
    expect(await patch(server, cookie, { UPDATES: 'true' })).toMatchObject({
      status: 400,
      body: {
        fields: {
          UPDATES:
            'Needs PUBLIC_URL to start with https:// (http only for localhost): mail programs offer one-click unsubscribe only for https links',
        },
      },
    })
    expect((await patch(server, cookie, { PUBLIC_URL: 'https://farm.example', UPDATES: 'true' })).status).toBe(200)
    const desk = await fetch(`${server.url}/api/updates`, { headers: { Cookie: cookie } })
    expect(desk.status).toBe(200)
  })

  it('sends a signed test post with the address and secret on the form, before they are saved', async () => {
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = []
    const receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        received.push({ headers: req.headers, body })
        res.writeHead(204).end()
      })
    })
    const port = await freePort()
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve))
    receivers.push(receiver)
    const secret = `whsec_${randomBytes(32).toString('base64')}`
    const { server, cookie } = await site()
    const tested = await postSettingsPage(server, cookie, {
      section: 'webhook',
      intent: 'test-post',
      WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/leads`,
      WEBHOOK_SECRET: secret,
      WEBHOOK_INCLUDE_SPAM: 'false',
    })
    expect(tested.status).toBe(200)
    expect(tested.html).toContain('Posted a signed test to the webhook. It answered 2xx.')
    expect(tested.html).not.toContain(secret)
    expect(received).toHaveLength(1)
    const verified = new Webhook(secret.slice('whsec_'.length)).verify(received[0]!.body, {
      'webhook-id': String(received[0]!.headers['webhook-id']),
      'webhook-timestamp': String(received[0]!.headers['webhook-timestamp']),
      'webhook-signature': String(received[0]!.headers['webhook-signature']),
    })
    expect(verified).toMatchObject({ type: 'lead.test', data: { test: true } })
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
    const closed = await postSettingsPage(server, cookie, {
      section: 'webhook',
      intent: 'test-post',
      WEBHOOK_URL: `http://127.0.0.1:${await freePort()}/`,
      WEBHOOK_SECRET: secret,
    })
    expect(closed.html).toContain('The endpoint could not be reached (ECONNREFUSED).')

    // Saved, then turned off from the page: an empty address takes its secret with it.
    const hook = { section: 'webhook', WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/leads`, WEBHOOK_SECRET: secret }
    expect(
      (await postSettingsPage(server, cookie, { ...hook, intent: 'save', WEBHOOK_INCLUDE_SPAM: 'true' })).status,
    ).toBe(303)
    expect(
      (await postSettingsPage(server, cookie, { ...hook, intent: 'save', WEBHOOK_URL: '', WEBHOOK_SECRET: '' })).status,
    ).toBe(303)
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
  })
})
