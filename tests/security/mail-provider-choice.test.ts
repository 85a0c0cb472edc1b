// Attacks on the mail form's provider choice ('Use these settings'): other spellings of a
// provider, the tests' provider on a real site, repeated and file-shaped values, another
// section's form, a typed password: nothing is saved, nothing is filled but a known provider's
// servers, and no password is said back.
import { describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import { postSettingsPage } from '#tests/support/settings-page'

const serve = serverPerTest('SIGKILL')

async function site(env: Record<string, string> = {}) {
  const server = await serve({ env: { OWNER_PASSWORD: password, ...env } })
  return { server, cookie: await signInAsOwner(server.url, password) }
}

const choose = (server: RunningServer, cookie: string, fields: Record<string, string>) =>
  postSettingsPage(server, cookie, { section: 'mail', intent: 'use-provider', ...fields })

describe('the provider’s choice', () => {
  it('fills in only a provider the site knows, saves nothing, and never says a typed password back', async () => {
    const { server, cookie } = await site()
    const gmail = await choose(server, cookie, { provider: 'gmail', SMTP_PASSWORD: 'Typed-Hay-9', SMTP_USER: 'me' })
    expect(gmail.status).toBe(200)
    expect(gmail.html).toContain('value="smtp.gmail.com"')
    expect(gmail.html).toContain('value="imap.gmail.com"')
    expect(gmail.html).not.toContain('Typed-Hay-9')
    for (const provider of [
      'this-machine',
      'GMAIL',
      'gmail ',
      '__proto__',
      'constructor',
      'toString',
      '',
      'g'.repeat(5_000),
    ]) {
      const answer = await choose(server, cookie, { provider })
      expect([provider.slice(0, 20), answer.status]).toEqual([provider.slice(0, 20), 400])
      expect(answer.html).toContain('Choose your provider first.')
      expect(answer.html).not.toContain('smtp.gmail.com')
    }
    // Only the first of a repeated field counts, as with every field of the page.
    const repeated = await fetch(`${server.url}/farm-sales/settings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
      body: 'section=mail&intent=use-provider&provider=fastmail&provider=gmail',
    })
    expect(await repeated.text()).toContain('value="smtp.fastmail.com"')
    // A file where the choice should be is no provider.
    const multipart = new FormData()
    multipart.set('section', 'mail')
    multipart.set('intent', 'use-provider')
    multipart.set('provider', new Blob(['gmail']), 'gmail')
    const file = await fetch(`${server.url}/farm-sales/settings`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: server.url },
      body: multipart,
    })
    expect(file.status).toBe(400)
    // Another section's form has no provider to choose.
    const farm = await postSettingsPage(server, cookie, { section: 'farm', intent: 'use-provider', provider: 'gmail' })
    expect(farm.status).toBe(400)
    expect(farm.html).toContain('That change is not one this page knows.')
    expect(readRows(server.databasePath, 'SELECT * FROM farm_settings')).toEqual([])
  })

  it('the tests’ provider is offered only where the site runs with it, and a password in it stops the site', async () => {
    const { server, cookie } = await site({ TEST_MAIL_PROVIDER: 'smtp://127.0.0.1:2587 imaps://localhost:2993' })
    const ours = await choose(server, cookie, { provider: 'this-machine' })
    expect(ours.status).toBe(200)
    expect(ours.html).toContain('value="2993"')
    const page = await (await fetch(`${server.url}/farm-sales/settings`, { headers: { Cookie: cookie } })).text()
    expect(page).toContain('The mail server on this machine (tests)')
    const real = await site()
    const realPage = await (
      await fetch(`${real.server.url}/farm-sales/settings`, { headers: { Cookie: real.cookie } })
    ).text()
    expect(realPage).not.toContain('The mail server on this machine')
    // A password written into it is refused at start, and not repeated.
    const withPassword = await serve({
      env: {
        OWNER_PASSWORD: password,
        TEST_MAIL_PROVIDER: 'smtp://farm:hay-secret@127.0.0.1:2587 imaps://localhost:2993',
      },
    }).catch((error: unknown) => String(error))
    expect(withPassword).toContain('TEST_MAIL_PROVIDER must be an smtp:// and an imaps:// address without a password')
    expect(withPassword).not.toContain('hay-secret')
  })
})
