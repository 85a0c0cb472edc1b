// The browser's time zone a sign-in sends (the hidden `timeZone` field) sets the farm's clock only
// after a right password, only while none is chosen, and only as a zone this machine knows: never
// a stranger's, never markup, a header, a file or a long string; FARM_TIME_ZONE itself is held to
// the settings' checks, however the API spells it.
import { beforeEach, describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const serve = serverPerTest('SIGKILL')
let address = 0
// Each sign-in comes from its own address (X-Forwarded-For), so the 5-a-minute limit stays out of the way.
const nextAddress = () => `198.51.100.${++address}`

function post(server: RunningServer, path: string, body: string, contentType = 'application/x-www-form-urlencoded') {
  return rawRequest(server.url, {
    path,
    headers: {
      'Content-Type': contentType,
      'Content-Length': String(Buffer.byteLength(body)),
      'X-Forwarded-For': nextAddress(),
    },
    body,
  })
}
const signIn = (server: RunningServer, fields: string) => post(server, '/sign-in', `redirectTo=%2Ffarm-sales&${fields}`)
const stored = (server: RunningServer) =>
  readRows<{ value: string }>(server.databasePath, "SELECT value FROM farm_settings WHERE key = 'FARM_TIME_ZONE'")

describe('the zone a sign-in sends', () => {
  let server: RunningServer
  beforeEach(async () => {
    server = await serve({ env: { OWNER_PASSWORD: password, TRUST_PROXY: '1' } })
  })

  it('is never taken with a wrong password, nor from a set-up or join link that is not there', async () => {
    expect((await signIn(server, 'password=wrong&timeZone=Pacific%2FAuckland')).status).toBe(401)
    expect(
      (
        await post(
          server,
          `/set-up/${'b'.repeat(43)}`,
          'name=Eve&email=eve%40evil.example&password=long+enough+password&timeZone=Pacific%2FAuckland',
        )
      ).status,
    ).toBe(410)
    expect(
      (await post(server, `/join/${'a'.repeat(43)}`, 'password=long+enough+password&timeZone=Pacific%2FAuckland'))
        .status,
    ).toBe(404)
    expect(stored(server)).toEqual([])
  })

  it.each([
    ['markup', 'Pacific/Auckland"><script>alert(1)</script>'],
    ['a header', 'Pacific/Auckland\r\nSet-Cookie: x=y'],
    ['a NUL', 'Pacific/Auckland\u0000'],
    ['an offset', '+13:00'],
    ['an offset named as GMT', 'GMT+13:00'],
    ['a place there is none of', 'Mars/Olympus_Mons'],
    ['a path', '../../../etc/passwd'],
    ['a long string', `Pacific/${'A'.repeat(10_000)}`],
    ['full-width letters', 'Ｐacific/Ａuckland'],
    ['SQL', "UTC'; DROP TABLE farm_settings; --"],
  ])('is refused when it is %s: the sign-in goes on, the clock stays unchosen', async (_, zone) => {
    const answer = await signIn(server, `password=${encodeURIComponent(password)}&timeZone=${encodeURIComponent(zone)}`)
    expect(answer.status).toBe(302)
    expect(stored(server)).toEqual([])
    expect(server.output()).not.toContain(zone.slice(0, 40))
  })

  it('is not read at all in a form past the site’s cap (413)', async () => {
    const answer = await signIn(
      server,
      `password=${encodeURIComponent(password)}&timeZone=Pacific%2F${'A'.repeat(100_000)}`,
    )
    expect(answer.status).toBe(413)
    expect(stored(server)).toEqual([])
  })

  it('is taken as Intl spells it, however it is cased or encoded, and only the first one sent', async () => {
    const answer = await signIn(
      server,
      `password=${encodeURIComponent(password)}&timeZone=pacific%2Fauckland&timeZone=Europe%2FLondon`,
    )
    expect(answer.status).toBe(302)
    expect(stored(server)).toEqual([{ value: 'Pacific/Auckland' }])
  })

  it('is refused as a file, with the form’s words, and signs no one in', async () => {
    const boundary = 'farmclockboundary'
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${password}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="timeZone"; filename="zone.txt"\r\nContent-Type: text/plain\r\n\r\nPacific/Auckland\r\n`,
      `--${boundary}--\r\n`,
    ].join('')
    const answer = await post(server, '/sign-in', body, `multipart/form-data; boundary=${boundary}`)
    expect(answer.status).toBe(400)
    expect(answer.headers['set-cookie']).toBeUndefined()
    expect(stored(server)).toEqual([])
  })
})

describe('FARM_TIME_ZONE through the settings API', () => {
  it.each([
    ['a number', 42, 'Must be text, or null to take the default.'],
    ['yes or no', true, 'Must be text, or null to take the default.'],
    ['a second line', 'Pacific/Auckland\nX: y', 'Only printable characters, please.'],
    ['too long', 'A'.repeat(501), 'At most 500 characters.'],
    [
      'markup',
      '<b>UTC</b>',
      'Must be a time zone as computers name them, such as Europe/London or Pacific/Auckland, not "<b>UTC</b>"',
    ],
  ])('refuses %s with the field’s own words, changing nothing', async (_, value, words) => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    const cookie = await signInAsOwner(server.url, password)
    const answer = await fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ FARM_TIME_ZONE: value }),
    })
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({ fields: { FARM_TIME_ZONE: words } })
    expect(stored(server)).toEqual([])
  })

  it('says a refused name in words as text on the page, never as markup', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    const cookie = await signInAsOwner(server.url, password)
    const answer = await fetch(`${server.url}/farm-sales/settings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
      body: new URLSearchParams({ section: 'farm', intent: 'save', FARM_TIME_ZONE: '<img src=x onerror=alert(1)>' }),
    })
    const html = await answer.text()
    expect(answer.status).toBe(400)
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('not &quot;&lt;img src=x onerror=alert(1)&gt;&quot;')
  })
})
