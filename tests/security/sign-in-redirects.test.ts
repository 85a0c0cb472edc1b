// redirectTo never sends the owner off the site and never makes the server fail, however it
// is spelled or encoded, on the sign-in page and after signing in.
import { beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const password = 'sheep may safely graze'
const hostile = [
  '/\t/evil.example',
  '/%09/evil.example',
  '/%09%5Cevil.example',
  '/\t\\evil.example',
  '//evil.example',
  '///evil.example',
  '/.//evil.example',
  '/..//evil.example',
  '/%2e%2e//evil.example',
  '/\\evil.example',
  '/%5Cevil.example',
  '/%5C%5Cevil.example',
  '\\/evil.example',
  'https://evil.example',
  'https:evil.example',
  'javascript:alert(1)',
  'data:text/html,hi',
  '/%0a/evil.example',
  '/%0d%0aSet-Cookie:x=y',
  '/\n/evil.example',
  '/\r\nLocation: https://evil.example',
  '%2F%2Fevil.example',
  '/%252F%252Fevil.example',
  '/farm-sales\u0000',
  '',
]

describe('redirectTo', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    // Each sign-in below comes from its own address (X-Forwarded-For), so the 5-a-minute limit stays out of the way.
    server = await serve({ env: { OWNER_PASSWORD: password, TRUST_PROXY: '1' } })
  })

  let address = 0
  const nextAddress = () => `198.51.100.${++address}`
  /** Signs in from a fresh address each time, asking to be sent to `redirectTo`. */
  function signIn(redirectTo: string) {
    const body = new URLSearchParams({ password, redirectTo }).toString()
    return rawRequest(server.url, {
      path: '/sign-in',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': String(body.length),
        'X-Forwarded-For': nextAddress(),
      },
      body,
    })
  }
  const sameOrigin = (location: unknown) => new URL(String(location), server.url).origin === server.url

  it.each(hostile)('the sign-in page keeps %j on this site and answers 200', async (redirectTo) => {
    const answer = await rawRequest(server.url, {
      method: 'GET',
      path: `/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`,
    })
    expect(answer.status).toBe(200)
    const hidden = /name="redirectTo" value="([^"]*)"/.exec(answer.text)![1]!
    expect(sameOrigin(hidden.replaceAll('&amp;', '&'))).toBe(true)
    expect(hidden).toMatch(/^\/[\x21-\x7e]*$/)
  })

  it.each(hostile)('after signing in, %j lands on this site', async (redirectTo) => {
    const answer = await signIn(redirectTo)
    expect(answer.status).toBe(302)
    expect(sameOrigin(answer.headers.location)).toBe(true)
    expect(String(answer.headers.location)).toMatch(/^\/[\x21-\x7e]*$/)
  })

  it('a signed-in owner sent to the sign-in page with a raw newline in redirectTo is redirected on site, not a 500', async () => {
    const signedIn = await signIn('/farm-sales')
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!
    for (const redirectTo of ['%0a', '%0d', '/%0a/x', '/%E0%A4%A']) {
      const answer = await rawRequest(server.url, {
        method: 'GET',
        path: `/sign-in?redirectTo=${redirectTo}`,
        headers: { Cookie: cookie },
      })
      expect({ redirectTo, status: answer.status }).toEqual({ redirectTo, status: 302 })
      expect(sameOrigin(answer.headers.location)).toBe(true)
    }
    expect(server.output()).not.toMatch(/"level":50/)
  })
})
