// The owner's phones: only the signed-in owner may subscribe one, and only to an https address on
// a known push service's host, however it is spelt, so no one can make the server post where they
// choose; a subscription that is not one is refused with its reason, and nothing is stored.
import { createECDH, randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { newVapidKeys } from '#app/push/vapid.server'
import { readRows } from '#tests/support/database'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile, serverPerTest } from '#tests/support/server-per-test'

function keys() {
  const pair = createECDH('prime256v1')
  pair.generateKeys()
  return { p256dh: pair.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') }
}

function keysWhere(wanted: (each: ReturnType<typeof keys>) => boolean) {
  for (;;) {
    const each = keys()
    if (wanted(each)) return each
  }
}

const phones = (server: RunningServer) =>
  readRows<{ endpoint: string }>(server.databasePath, 'SELECT endpoint FROM push_subscriptions ORDER BY id').map(
    (row) => row.endpoint,
  )

async function call(
  server: RunningServer,
  path: string,
  init: { method?: string; cookie?: string; body?: string; type?: string } = {},
) {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'POST',
    headers: {
      Origin: server.url,
      ...(init.type === undefined
        ? { 'Content-Type': 'application/json' }
        : init.type
          ? { 'Content-Type': init.type }
          : {}),
      ...(init.cookie ? { Cookie: init.cookie } : {}),
    },
    ...(init.body === undefined ? {} : { body: init.body }),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    text,
    error: text.startsWith('{') ? (JSON.parse(text) as { error?: string }).error : undefined,
  }
}

describe('with the shipped push hosts and a signed-in owner', () => {
  let server: RunningServer
  let cookie: string
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { OWNER_PASSWORD: password, NOTIFY_EMAIL: 'owner@farm.example' } })
    cookie = await signInAsOwner(server.url, password)
  })

  const subscribe = (body: unknown) =>
    call(server, '/api/push-subscriptions', { cookie, body: typeof body === 'string' ? body : JSON.stringify(body) })
  const unsubscribe = (endpoint: string) =>
    call(server, '/api/push-subscriptions', { cookie, method: 'DELETE', body: JSON.stringify({ endpoint }) })

  it('refuses every endpoint that is not https on a known push service, however it is spelt', async () => {
    for (const [endpoint, reason] of [
      ['http://fcm.googleapis.com/fcm/send/abc', /https:\/\//],
      ['https://push.attacker.example/abc', /not on a known push service/],
      ['https://127.0.0.1/abc', /not on a known push service/],
      ['https://fcm.googleapis.com:8443/fcm/send/abc', /not on a known push service/],
      ['https://fcm.googleapis.com./fcm/send/abc', /not on a known push service/],
      ['https://user:pass@fcm.googleapis.com/fcm/send/abc', /user name or password/],
      ['https://evilnotify.windows.com/w/?token=1', /not on a known push service/],
      ['https://notify.windows.com.attacker.example/w/', /not on a known push service/],
      ['https://.notify.windows.com/w/', /./],
      // Read again by Node's legacy URL parser inside web-push, these would name 127.0.0.1 and evil.example.
      ['https://127.0.0.1;.notify.windows.com/ssrf', /not on a known push service/],
      ['https://evil.example{.notify.windows.com/', /not on a known push service/],
      ['https://evil.example%3B.notify.windows.com/', /./],
      ['not a url', /not a web address/],
    ] as const) {
      const answer = await subscribe({ endpoint, keys: keys() })
      expect(answer.status, endpoint).toBe(400)
      expect(answer.error, endpoint).toMatch(reason)
    }
    expect(phones(server)).toEqual([])
  })

  it('refuses keys that are not a browser’s, and bodies that are not a subscription', async () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/phone-1'
    const good = keys()
    const offCurve = Buffer.from(good.p256dh, 'base64url')
    offCurve[64] = offCurve[64]! ^ 1
    // About one random key in fourteen has no '+' or '/' in plain base64, which makes it padded
    // base64url, rightly accepted: take one that is spelt differently.
    const plainBase64 = keysWhere((each) => /[+/]/.test(Buffer.from(each.p256dh, 'base64url').toString('base64')))
    for (const [body, reason] of [
      [{ endpoint }, /PushSubscription/],
      [{ endpoint, keys: { auth: good.auth } }, /p256dh/],
      [{ endpoint, keys: { p256dh: good.p256dh } }, /auth/],
      [{ endpoint, keys: { p256dh: good.p256dh.slice(0, 40), auth: good.auth } }, /65 bytes/],
      [{ endpoint, keys: { p256dh: offCurve.toString('base64url'), auth: good.auth } }, /curve/],
      [
        {
          endpoint,
          keys: { p256dh: Buffer.from(plainBase64.p256dh, 'base64url').toString('base64'), auth: plainBase64.auth },
        },
        /base64url/,
      ],
      [{ endpoint, keys: { p256dh: good.p256dh, auth: randomBytes(8).toString('base64url') } }, /16 bytes/],
      [{ endpoint, keys: { p256dh: 12, auth: [good.auth] } }, /p256dh/],
      [{ endpoint: 42, keys: good }, /PushSubscription/],
      [[endpoint], /PushSubscription/],
      [{ endpoint, keys: good, padding: 'x'.repeat(2_100) }, /at most 2048 bytes/],
      ['{"endpoint": ', /not valid JSON/],
    ] as const) {
      const answer = await subscribe(body)
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(answer.error).toMatch(reason)
    }
    const wrongType = await call(server, '/api/push-subscriptions', {
      cookie,
      type: 'text/plain',
      body: JSON.stringify({ endpoint, keys: good }),
    })
    expect(wrongType.status).toBe(415)
    expect(phones(server)).toEqual([])
  })

  it('takes a key with base64 padding, as some browsers spell it, and stores it unpadded', async () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/padded'
    const good = keys()
    expect((await subscribe({ endpoint, keys: { p256dh: `${good.p256dh}=`, auth: `${good.auth}==` } })).status).toBe(
      201,
    )
    expect(readRows(server.databasePath, 'SELECT p256dh, auth FROM push_subscriptions')).toEqual([good])
    expect((await unsubscribe(endpoint)).status).toBe(204)
    expect(phones(server)).toEqual([])
  })

  it('answers GET, PUT and PATCH with 405 in JSON, never a stack trace', async () => {
    for (const method of ['GET', 'PUT', 'PATCH']) {
      const answer = await call(server, '/api/push-subscriptions', {
        cookie,
        method,
        ...(method === 'GET' ? {} : { body: '{}' }),
      })
      expect(answer.status, method).toBe(405)
      expect(answer.headers.get('allow')).toBe('POST, DELETE')
      expect(answer.error).toBe(`${method} is not allowed here.`)
    }
    expect(server.output()).not.toMatch(/did not provide a `loader`/)
  })

  it('keeps at most 20 phones, even when 30 ask at once; the 21st is told 409', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        subscribe({ endpoint: `https://fcm.googleapis.com/fcm/send/phone-${n}`, keys: keys() }),
      ),
    )
    expect(answers.filter((each) => each.status === 201)).toHaveLength(20)
    const refused = answers.filter((each) => each.status === 409)
    expect(refused).toHaveLength(10)
    expect(refused[0]!.error).toBe('20 phones are notified already: turn one off before adding another.')
    expect(phones(server)).toHaveLength(20)
    // A phone already known may renew its keys while the list is full.
    const known = phones(server)[0]!
    expect((await subscribe({ endpoint: known, keys: keys() })).status).toBe(200)
    // DELETE takes one off (another spelling of its address too); an unknown one is 404.
    expect((await unsubscribe(known.replace('https://fcm', 'HTTPS://FCM'))).status).toBe(204)
    expect((await unsubscribe(known)).status).toBe(404)
    expect(phones(server)).toHaveLength(19)
  })
})

const serve = serverPerTest()

it('lets no one but the signed-in owner near the phones: 401 without a session, 403 without OWNER_PASSWORD', async () => {
  const guarded = await serve({ env: { OWNER_PASSWORD: password, NOTIFY_EMAIL: 'owner@farm.example' } })
  const open = await serve({ env: { NOTIFY_EMAIL: 'owner@farm.example' } })
  const body = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: keys() })
  for (const path of ['/api/push-subscriptions', '/api/push%2Dsubscriptions', '/api/push-subscriptions/']) {
    for (const method of ['POST', 'DELETE']) {
      const stranger = await call(guarded, path, { method, body })
      expect(stranger.status, `${method} ${path}`).toBe(401)
      expect(stranger.error).toBe('Sign in as one of the farm’s team to be notified of leads.')
      const openInbox = await call(open, path, { method, body })
      expect(openInbox.status, `${method} ${path}`).toBe(403)
      expect(openInbox.error).toMatch(/^To be notified on this phone, claim the site first/)
    }
  }
  expect((await call(guarded, '/api/push-key', { method: 'GET', type: '' })).status).toBe(401)
  expect((await call(open, '/api/push-key', { method: 'GET', type: '' })).status).toBe(403)
  expect(phones(guarded)).toEqual([])
  expect(phones(open)).toEqual([])
})

it('refuses to start with VAPID keys, PUSH_HOSTS or a VAPID_SUBJECT that are not right, never repeating a key', async () => {
  const { publicKey, privateKey } = newVapidKeys()
  for (const [env, said] of [
    [{ VAPID_PUBLIC_KEY: publicKey }, /Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/],
    [
      { VAPID_PUBLIC_KEY: publicKey.slice(0, 50), VAPID_PRIVATE_KEY: privateKey },
      /VAPID_PUBLIC_KEY must be a P-256 public key/,
    ],
    [
      { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: `${privateKey}+/` },
      /VAPID_PRIVATE_KEY must be a P-256 private key/,
    ],
    [{ VAPID_PUBLIC_KEY: newVapidKeys().publicKey, VAPID_PRIVATE_KEY: privateKey }, /not one key pair/],
    [{ PUSH_HOSTS: '*.com' }, /PUSH_HOSTS holds "\*\.com"/],
    [{ PUSH_HOSTS: 'push.example:08443' }, /PUSH_HOSTS holds/],
    [{ PUSH_HOSTS: 'push.example/path' }, /PUSH_HOSTS holds/],
    [{ VAPID_SUBJECT: 'https://farm example.com' }, /VAPID_SUBJECT must be a mailto: or https: address/],
    [{ VAPID_SUBJECT: 'mailto:nobody' }, /VAPID_SUBJECT must be/],
  ] as const) {
    const started = await serve({ env: { OWNER_PASSWORD: password, ...env } }).catch((error: Error) => error)
    expect(started, JSON.stringify(env)).toBeInstanceOf(Error)
    const message = String((started as Error).message)
    expect(message).toMatch(said)
    expect(message).not.toContain(privateKey)
  }
})
