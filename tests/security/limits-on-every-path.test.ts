// Every spelling and method that reaches an action that stores a submission or checks the
// owner's password counts against the same limit, at the shipped defaults.
import { beforeAll, describe, expect, it } from 'vitest'
import { defaults } from '#server/config'
import { storedRows } from '#tests/support/database'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const json = JSON.stringify({ name: 'Bot', email: 'bot@example.com', message: 'Buy now' })
const form = 'name=Bot&email=bot%40example.com&message=Buy+now'
const password = 'the right password'

describe('the submission limit', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    // The harness lifts the limit for other suites; this one runs at the shipped default.
    server = await serve({ env: { SUBMISSION_RATE_LIMIT: defaults.SUBMISSION_RATE_LIMIT } })
  })

  it('holds on every spelling and method once spent', async () => {
    const limit = Number(defaults.SUBMISSION_RATE_LIMIT)
    for (let i = 0; i < limit; i++) {
      const answer = await rawRequest(server.url, {
        path: '/api/submissions',
        headers: { 'Content-Type': 'application/json' },
        body: json,
      })
      expect(answer.status).toBe(201)
    }
    const attempts: Array<{ method: string; path: string; type: string; body: string; status: number }> = [
      { method: 'POST', path: '/api/submissions', type: 'application/json', body: json, status: 429 },
      { method: 'POST', path: '/api/submission%73', type: 'application/json', body: json, status: 429 },
      { method: 'POST', path: '/api/submissions/', type: 'application/json', body: json, status: 429 },
      { method: 'POST', path: '/api/submissions//', type: 'application/json', body: json, status: 429 },
      { method: 'POST', path: '/API/Submissions', type: 'application/json', body: json, status: 429 },
      { method: 'POST', path: '//api/submissions', type: 'application/json', body: json, status: 429 },
      {
        method: 'POST',
        path: '/api/submissions?_data=routes/api.submissions',
        type: 'application/json',
        body: json,
        status: 429,
      },
      { method: 'POST', path: '/?index', type: 'application/x-www-form-urlencoded', body: form, status: 429 },
      { method: 'POST', path: '//?index', type: 'application/x-www-form-urlencoded', body: form, status: 429 },
      { method: 'POST', path: '/%3Findex', type: 'application/x-www-form-urlencoded', body: form, status: 405 },
      {
        method: 'POST',
        path: '/?index&_data=routes/_index',
        type: 'application/x-www-form-urlencoded',
        body: form,
        status: 429,
      },
      { method: 'PUT', path: '/?index', type: 'application/x-www-form-urlencoded', body: form, status: 405 },
      { method: 'PATCH', path: '/?index', type: 'application/x-www-form-urlencoded', body: form, status: 405 },
      { method: 'DELETE', path: '/?index', type: 'application/x-www-form-urlencoded', body: form, status: 405 },
      { method: 'PUT', path: '/api/submissions', type: 'application/json', body: json, status: 405 },
      { method: 'PATCH', path: '/api/submission%73', type: 'application/json', body: json, status: 405 },
    ]
    for (const { method, path, type, body, status } of attempts) {
      const headers = { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)) }
      const answer = await rawRequest(server.url, { method, path, headers, body })
      expect({ method, path, status: answer.status }).toEqual({ method, path, status })
      expect(answer.text).not.toMatch(/\n\s+at /)
      // The method guard says which method the action takes, on a page as on the API.
      if (status === 405 && method !== 'POST') expect(answer.headers.allow).toMatch(/POST/)
    }
    expect(storedRows(server.databasePath)).toHaveLength(limit)
  })

  it('answers the API in JSON with Retry-After, and the no-JS form with its message and values on the page', async () => {
    const api = await rawRequest(server.url, {
      path: '/api/submissions',
      headers: { 'Content-Type': 'application/json' },
      body: json,
    })
    expect(api.status).toBe(429)
    expect(Number(api.headers['retry-after'])).toBeGreaterThan(0)
    expect(JSON.parse(api.text)).toEqual({
      error: 'Too many submissions from your address. Please wait a minute and try again.',
    })
    const page = await rawRequest(server.url, {
      path: '/?index',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: form,
    })
    expect(page.status).toBe(429)
    expect(Number(page.headers['retry-after'])).toBeGreaterThan(0)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.text).toContain('Too many submissions from your address. Please wait a minute and try again.')
    expect(page.text).toContain('value="Bot"')
  })
})

describe('the sign-in limit', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { OWNER_PASSWORD: password } })
  })

  const attempt = (path: string, method = 'POST', guess = password) => {
    const body = new URLSearchParams({ password: guess, redirectTo: '/farm-sales' }).toString()
    return rawRequest(server.url, {
      method,
      path,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(body.length) },
      body,
    })
  }

  it('refuses other methods outright and counts every spelling, so the right password gets no session past the limit', async () => {
    const put = await attempt('/sign-in', 'PUT')
    expect(put.status).toBe(405)
    expect(put.headers.allow).toBe('POST')
    expect(put.headers['set-cookie']).toBeUndefined()
    for (let i = 0; i < 5; i++)
      expect(
        (await attempt(['/sign-in', '/sign%2Din', '/sign-in//', '/SIGN-IN', '/sign-in/'][i]!, 'POST', `guess ${i}`))
          .status,
      ).toBe(401)
    // A leading `//` matches no route with an action: Remix answers 405 itself.
    expect((await attempt('//sign-in')).status).toBe(405)
    for (const path of ['/sign-in', '/sign%2Din', '/sign-in//', '/Sign-In', '/sign-in?_data=routes/sign-in']) {
      const answer = await attempt(path)
      expect({ path, status: answer.status }).toEqual({ path, status: 429 })
      expect(answer.headers['set-cookie']).toBeUndefined()
    }
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const answer = await attempt('/sign-in', method)
      expect({ method, status: answer.status }).toEqual({ method, status: 405 })
      expect(answer.headers['set-cookie']).toBeUndefined()
    }
  })
})
