// The kept home page (decision 043) cannot be poisoned: whatever the request that rendered it
// carried (a Host, a forwarded host, a query, a method, a posted form, a signed-in owner) never
// reaches another visitor, and no answer carries another's nonce or form token.
import { describe, expect, it } from 'vitest'
import { getPage, keptCount, renameFarm, tokenIssuedAt, tokenSecret, type PageAnswer } from '#tests/support/home-page'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const serve = serverPerTest('SIGKILL')
let names = 0

async function site(env: Record<string, string> = {}) {
  const server = await serve({ env: { OWNER_PASSWORD: password, SESSION_SECRET: tokenSecret, ...env } })
  return { server, cookie: await signInAsOwner(server.url, password) }
}

/** A new version of the page: the next request renders it. */
async function freshVersion(server: RunningServer, cookie: string) {
  await renameFarm(server, cookie, `Poison Test Farm ${++names}`)
}

/** A plain visitor's page, once the site has kept one. */
async function keptPage(server: RunningServer, before: number): Promise<PageAnswer> {
  await expect.poll(() => keptCount(server), { timeout: 10_000 }).toBeGreaterThan(before)
  return getPage(server)
}

describe('the kept home page cannot be poisoned', () => {
  it('takes nothing from the Host or a forwarded host of the request that rendered it', async () => {
    const { server, cookie } = await site({ TRUST_PROXY: 'loopback' })
    await freshVersion(server, cookie)
    const before = keptCount(server)
    const evil = await getPage(server, '/', {
      Host: 'evil.example',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'https',
      'X-Original-URL': '/farm-sales',
      'X-Rewrite-URL': '/farm-sales',
    })
    expect(evil.status).toBe(200)
    const kept = await keptPage(server, before)
    expect(kept.html).not.toContain('evil.example')
    expect(kept.rawHeaders.join('\n')).not.toContain('evil.example')
    expect(kept.html).toContain('name="formToken"')
  })

  it('keeps no page for a query, a HEAD, a posted form or an owner, and shows none of theirs to a visitor', async () => {
    const { server, cookie } = await site()
    await freshVersion(server, cookie)
    const before = keptCount(server)
    const sent = await getPage(server, '/?sent')
    expect(sent.html).toContain('Thank you')
    await getPage(server, '/?<script>alert(1)</script>')
    await getPage(server, '/?index=&_data=routes%2F_index')
    expect((await getPage(server, '/', {}, 'HEAD')).sent.length).toBe(0)
    const invalid = await fetch(`${server.url}/?index`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
      body: new URLSearchParams({ name: 'Mallory Poison', email: 'not an address', message: '' }),
    })
    expect(invalid.status).toBe(400)
    expect(await invalid.text()).toContain('Mallory Poison')
    expect((await getPage(server, '/', { Cookie: cookie })).html).toContain('Sign out')
    // None of those was a visitor's plain GET: nothing kept yet.
    expect(keptCount(server)).toBe(before)
    await getPage(server)
    const kept = await keptPage(server, before)
    for (const leaked of ['Thank you', 'alert(1)', 'Mallory Poison', 'Sign out'])
      expect(kept.html).not.toContain(leaked)
    expect(kept.html).toContain('name="formToken"')
  })

  it('answers HEAD, odd spellings of / and other methods as it would without a kept page', async () => {
    const { server, cookie } = await site()
    await freshVersion(server, cookie)
    const before = keptCount(server)
    await getPage(server)
    await keptPage(server, before)
    const head = await getPage(server, '/', {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.sent.length).toBe(0)
    for (const path of ['//', '/?', '/index', '/%2F']) {
      const answer = await getPage(server, path)
      expect(answer.status === 200 ? answer.html.includes('name="formToken"') : true).toBe(true)
    }
    expect((await getPage(server, '/', {}, 'PUT')).status).toBe(405)
    expect((await getPage(server, '/', {}, 'DELETE')).status).toBe(405)
    // Still the visitors' page afterwards.
    expect((await getPage(server)).html).toContain(`Poison Test Farm ${names}</h1>`)
  })

  it('never gives one answer another’s nonce, nor the kept render’s token, however many come at once', async () => {
    const { server, cookie } = await site()
    await freshVersion(server, cookie)
    const before = keptCount(server)
    await getPage(server)
    await keptPage(server, before)
    const burstAt = Date.now()
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        getPage(server, '/', index % 2 ? { 'Accept-Encoding': 'br, gzip' } : { 'Accept-Encoding': 'gzip' }),
      ),
    )
    expect(new Set(answers.map((answer) => answer.nonce)).size).toBe(answers.length)
    for (const answer of answers) {
      // A token is the signed time it was handed out (two in one millisecond are the same): each
      // answer's is its own request's, not the one rendered with the kept page.
      expect(tokenIssuedAt(answer.token)).toBeGreaterThanOrEqual(burstAt)
      expect(answer.html.match(/nonce="([^"]+)"/g)?.every((one) => one === `nonce="${answer.nonce}"`)).toBe(true)
      expect(answer.html.match(/\d{13}\.[\w-]{43}/g)?.every((one) => one === answer.token)).toBe(true)
    }
  })
})
