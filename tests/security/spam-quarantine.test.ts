// Whatever the traps catch is kept aside, never dropped, and the fields are checked first:
// at the shipped MIN_FILL_SECONDS a fast visitor's message is stored, and a fast empty
// no-JS form gets its field messages.
import { beforeAll, describe, expect, it } from 'vitest'
import { defaults } from '#server/config'
import { storedRows } from '#tests/support/database'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const valid = { name: 'Quick Quentin', email: 'quentin@example.com', message: 'Two dozen eggs, please.' }

describe('spam traps at the shipped defaults', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    // The harness sets MIN_FILL_SECONDS=0 for other suites; these tests need the real default.
    server = await serve({ env: { MIN_FILL_SECONDS: defaults.MIN_FILL_SECONDS } })
  })

  async function formToken() {
    const html = await (await fetch(server.url)).text()
    return /name="formToken" value="([^"]+)"/.exec(html)![1]!
  }

  const spam = () => storedRows(server.databasePath).filter((row) => row.spam_reasons !== null)

  it('stores a valid form sent within MIN_FILL_SECONDS, set aside, instead of dropping it', async () => {
    const answer = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...valid, website: '', formToken: await formToken() }),
    })
    expect(answer.status).toBe(202)
    expect(spam()).toMatchObject([{ name: valid.name, spam_reasons: '["filled_too_fast"]' }])
    const folder = await (await fetch(`${server.url}/api/submissions?spam=true`)).json()
    expect(folder).toMatchObject([{ name: valid.name, spam: ['filled_too_fast'] }])
    expect(await (await fetch(`${server.url}/api/submissions`)).json()).toEqual([])
  })

  it('answers an empty no-JS form sent at once with its field messages, not a thank-you', async () => {
    const answer = await rawRequest(server.url, {
      path: '/?index',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: `name=&email=&message=&website=&formToken=${encodeURIComponent(await formToken())}`,
    })
    expect(answer.status).toBe(400)
    for (const message of ['Name is required', 'Email is required', 'Message is required']) {
      expect(answer.text).toContain(message)
    }
  })

  it.each([
    ['a null honeypot', { website: null }],
    ['a filled honeypot', { website: 'https://seo.example' }],
    ['a honeypot that is an object', { website: { url: 'x' } }],
    ['a honeypot that is a number', { website: 0 }],
  ])('keeps %s aside with its reason', async (_name, trap) => {
    const before = spam().length
    const answer = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...valid, ...trap }),
    })
    expect(answer.status).toBe(202)
    expect(spam()).toHaveLength(before + 1)
    expect(spam().at(-1)).toMatchObject({ spam_reasons: '["honeypot"]' })
  })

  it('keeps aside a no-JS form whose hidden field holds a file, and one whose field is empty text stays in', async () => {
    const before = spam().length
    const withFile = new FormData()
    for (const [field, value] of Object.entries(valid)) withFile.set(field, value)
    withFile.set('website', new Blob(['http://seo.example']), 'links.txt')
    expect((await fetch(`${server.url}/?index`, { method: 'POST', body: withFile, redirect: 'manual' })).status).toBe(
      303,
    )
    expect(spam()).toHaveLength(before + 1)
    expect(spam().at(-1)).toMatchObject({ name: valid.name, spam_reasons: '["honeypot"]' })

    const empty = new FormData()
    for (const [field, value] of Object.entries({ ...valid, name: 'Plain Pat', website: '' })) empty.set(field, value)
    expect((await fetch(`${server.url}/?index`, { method: 'POST', body: empty, redirect: 'manual' })).status).toBe(303)
    expect(storedRows(server.databasePath).at(-1)).toMatchObject({ name: 'Plain Pat', spam_reasons: null })
  })

  it('refuses a spam value it does not know', async () => {
    const answer = await fetch(`${server.url}/api/submissions?spam=yes`)
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({ error: 'The "spam" parameter must be true or false.' })
  })
})
