// The home page is rendered once per change of what it shows and answered from memory after
// (decision 043): an edit is on the next request, every answer has its own nonce and form token,
// and a kept answer is the rendered one to the byte, headers included, but for those two.
import { describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import {
  fullPageWords,
  getPage,
  publishPageWords,
  keptCount,
  renameFarm,
  tokenIssuedAt,
  tokenSecret,
  withoutOwnValues,
  type PageAnswer,
} from '#tests/support/home-page'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const serve = serverPerTest('SIGKILL')

async function site() {
  const server = await serve({ env: { OWNER_PASSWORD: password, SESSION_SECRET: tokenSecret } })
  return { server, cookie: await signInAsOwner(server.url, password) }
}

/** A rendered answer (the first after a change), then a kept one for the same request. */
async function renderedThenKept(server: RunningServer, headers: Record<string, string>) {
  const before = keptCount(server)
  const rendered = await getPage(server, '/', headers)
  await expect.poll(() => keptCount(server), { timeout: 10_000 }).toBe(before + 1)
  const kept = await getPage(server, '/', headers)
  expect(keptCount(server)).toBe(before + 1)
  return { rendered, kept }
}

async function postForm(server: RunningServer, answer: PageAnswer, name: string) {
  return fetch(`${server.url}/?index`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
    body: new URLSearchParams({
      name,
      email: `${name.toLowerCase().replace(' ', '.')}@example.com`,
      message: 'Are there eggs this Saturday?',
      website: '',
      formToken: answer.token,
    }),
  })
}

describe('the home page, rendered once per change', () => {
  it('answers kept pages that are the rendered one to the byte but for the nonce and the token, in every encoding', async () => {
    const { server, cookie } = await site()
    const spellings: Array<Record<string, string>> = [
      {},
      { 'Accept-Encoding': 'br, gzip' },
      { 'Accept-Encoding': 'gzip, deflate, br, zstd' },
    ]
    const more = [
      { 'Accept-Encoding': 'gzip' },
      { 'Accept-Encoding': 'deflate' },
      { 'Accept-Encoding': 'gzip;q=1, br;q=0.5' },
    ]
    for (const [index, headers] of [...spellings, ...more].entries()) {
      // A new name each time: the next answer is rendered anew.
      await renameFarm(server, cookie, `Orchard Row ${index}`)
      const { rendered, kept } = await renderedThenKept(server, headers)
      expect(rendered.status).toBe(200)
      expect(rendered.html).toContain(`Welcome to Orchard Row ${index}</h1>`)
      expect(withoutOwnValues(kept)).toEqual(withoutOwnValues(rendered))
      expect(kept.nonce).not.toBe(rendered.nonce)
      expect(kept.token).not.toBe(rendered.token)
    }
  })

  it('shows a new farm name on the next request, without a restart', async () => {
    const { server, cookie } = await site()
    await renameFarm(server, cookie, 'Bramble Hill Farm')
    await renderedThenKept(server, {})
    expect((await getPage(server)).html).toContain('Welcome to Bramble Hill Farm</h1>')
    await renameFarm(server, cookie, 'Hazel Brook Farm')
    const next = await getPage(server)
    expect(next.html).toContain('Welcome to Hazel Brook Farm</h1>')
    expect(next.html).not.toContain('Bramble Hill Farm')
    // Back to the first name: the first version again, with this answer's own values.
    await renameFarm(server, cookie, 'Bramble Hill Farm')
    expect((await getPage(server)).html).toContain('Welcome to Bramble Hill Farm</h1>')
  })

  it('shows the page’s words on the next request once the owner publishes them', async () => {
    const { server, cookie } = await site()
    await renderedThenKept(server, {})
    await publishPageWords(server.url, cookie)
    const next = await getPage(server)
    expect(next.html).toContain(`${fullPageWords.welcome} Willow Creek Farm</h1>`)
    expect(next.html).toContain(fullPageWords.intro)
    expect(next.html).toContain('My grandmother planted the orchard.')
  })

  it('gives each answer its own nonce and a fresh signed token, and both forms send without JavaScript', async () => {
    const { server } = await site()
    await renderedThenKept(server, {})
    const startedAt = Date.now()
    const first = await getPage(server)
    const second = await getPage(server)
    for (const answer of [first, second]) {
      // The nonce the policy allows is the one on the page's scripts, and only that one.
      expect(answer.html).toContain(`nonce="${answer.nonce}"`)
      expect(answer.html.match(/nonce="([^"]+)"/g)?.every((one) => one === `nonce="${answer.nonce}"`)).toBe(true)
      expect(tokenIssuedAt(answer.token)).toBeGreaterThanOrEqual(startedAt)
    }
    expect(first.nonce).not.toBe(second.nonce)
    expect(first.token).not.toBe(second.token)
    for (const [answer, name] of [
      [first, 'Ann Baker'],
      [second, 'Ben Carter'],
    ] as const) {
      const posted = await postForm(server, answer, name)
      expect(posted.status).toBe(303)
      expect(posted.headers.get('location')).toBe('/?sent#contact')
    }
    const stored = readRows<{ name: string; spam_reason: string | null }>(
      server.databasePath,
      'SELECT name FROM submissions ORDER BY id',
    )
    expect(stored.map((row) => row.name)).toEqual(['Ann Baker', 'Ben Carter'])
  })

  it('never gives a signed-in owner the visitors’ page, nor a visitor the owner’s', async () => {
    const { server, cookie } = await site()
    await renderedThenKept(server, {})
    const owners = await getPage(server, '/', { Cookie: cookie })
    expect(owners.html).toContain('Sign out')
    const visitors = await getPage(server)
    expect(visitors.html).not.toContain('Sign out')
    // The owner's page first this time, for a new version of the page.
    await renameFarm(server, cookie, 'Willow Lane Farm')
    expect((await getPage(server, '/', { Cookie: cookie })).html).toContain('Sign out')
    const afterwards = await getPage(server)
    expect(afterwards.html).toContain('Willow Lane Farm')
    expect(afterwards.html).not.toContain('Sign out')
    // A cookie that opens nothing is a visitor's: the visitors' page, kept.
    expect((await getPage(server, '/', { Cookie: 'farm_session=forged' })).html).not.toContain('Sign out')
  })
})
