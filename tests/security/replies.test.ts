// Replying sends mail as the farm: only the signed-in owner, only with OWNER_PASSWORD set, from
// the site's own pages, within the reply limit on every way in, with clear refusals that store
// nothing; and the owner's long reply gets through the body limit that keeps others small.
import Sqlite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaults } from '#server/config'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile, serverPerTest } from '#tests/support/server-per-test'

const lead = JSON.stringify({ name: 'Ann', email: 'ann@example.com', message: 'Eggs?' })

/** Posts a lead and gives its id (read from the file: a lead set aside as spam is answered without one). */
async function postLead(server: RunningServer, body = lead) {
  const answer = await rawRequest(server.url, {
    path: '/api/submissions',
    headers: { 'Content-Type': 'application/json' },
    body,
  })
  expect([201, 202]).toContain(answer.status)
  const sqlite = new Sqlite(server.databasePath, { readonly: true })
  try {
    return (sqlite.prepare('SELECT max(id) AS id FROM submissions').get() as { id: number }).id
  } finally {
    sqlite.close()
  }
}

function repliesStored(server: RunningServer): number {
  const sqlite = new Sqlite(server.databasePath, { readonly: true })
  try {
    return (sqlite.prepare('SELECT count(*) AS n FROM replies').get() as { n: number }).n
  } finally {
    sqlite.close()
  }
}

const replyJson = (server: RunningServer, id: number, text: string, headers: Record<string, string> = {}) =>
  rawRequest(server.url, {
    path: `/api/submissions/${id}/replies`,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ text }),
  })

const replyForm = (
  server: RunningServer,
  id: number,
  fields: Record<string, string>,
  headers: Record<string, string>,
) =>
  rawRequest(server.url, {
    path: '/farm-sales',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ intent: 'reply', id: String(id), ...fields }).toString(),
  })

describe('with OWNER_PASSWORD and mail set up', () => {
  let server: RunningServer
  let mail: MailServer
  let cookie: string
  beforeAll(async () => {
    mail = await startMailServer()
    server = await serve({
      env: { OWNER_PASSWORD: password, SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@farm.example' },
    })
    cookie = await signInAsOwner(server.url, password)
  })
  afterAll(() => mail.close())
  // Registered after the mail server's hook, so it runs before it: the site stops first.
  const serve = serverPerFile()

  it('answers a caller who is not signed in 401, sends a form to the sign-in page, and stores nothing', async () => {
    const id = await postLead(server)
    const before = repliesStored(server)
    const api = await replyJson(server, id, 'Hello')
    expect(api.status).toBe(401)
    expect(JSON.parse(api.text)).toEqual({ error: 'Sign in as one of the farm’s team to reply to leads.' })
    const history = await rawRequest(server.url, { method: 'GET', path: `/api/submissions/${id}/replies` })
    expect(history.status).toBe(401)
    const form = await replyForm(server, id, { text: 'Hello' }, {})
    expect(form.status).toBe(302)
    expect(form.headers.location).toMatch(/^\/sign-in\?redirectTo=/)
    const stale = await replyJson(server, id, 'Hello', { Cookie: 'farm_owner=not-a-session' })
    expect(stale.status).toBe(401)
    expect(repliesStored(server)).toBe(before)
  })

  it('refuses a reply another site’s page sends, however it says so', async () => {
    const id = await postLead(server)
    const before = repliesStored(server)
    const elsewhere: Array<Record<string, string>> = [
      { Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site', Origin: 'https://shop.farm.example' },
      { Origin: 'null' },
    ]
    for (const headers of elsewhere) {
      const api = await replyJson(server, id, 'Hello', { Cookie: cookie, ...headers })
      expect(api.status).toBe(403)
      expect(JSON.parse(api.text)).toEqual({ error: 'Requests from other sites are not accepted here.' })
      expect((await replyForm(server, id, { text: 'Hello' }, { Cookie: cookie, ...headers })).status).toBe(403)
    }
    expect(repliesStored(server)).toBe(before)
  })

  it('refuses a blank or over-long reply with the reason, and lets 20,000 characters through as JSON and as a form', async () => {
    const id = await postLead(server)
    const before = repliesStored(server)
    for (const text of ['', '   \n\t  ']) {
      const blank = await replyJson(server, id, text, { Cookie: cookie })
      expect(blank.status).toBe(400)
      expect(JSON.parse(blank.text)).toEqual({ error: 'Write a reply first.' })
    }
    const tooLong = await replyJson(server, id, 'é'.repeat(20_001), { Cookie: cookie })
    expect(tooLong.status).toBe(400)
    expect(JSON.parse(tooLong.text)).toEqual({
      error: 'A reply can be at most 20,000 characters; this one has 20,001.',
    })
    const noText = await rawRequest(server.url, {
      path: `/api/submissions/${id}/replies`,
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ message: 'Hello' }),
    })
    expect(noText.status).toBe(400)
    const notJson = await rawRequest(server.url, {
      path: `/api/submissions/${id}/replies`,
      headers: { 'Content-Type': 'text/plain', Cookie: cookie },
      body: 'Hello',
    })
    expect(notJson.status).toBe(415)
    const formBlank = await replyForm(server, id, { text: '  ' }, { Cookie: cookie })
    expect(formBlank.status).toBe(400)
    expect(formBlank.text).toContain('Not sent: <!-- -->Write a reply first.')
    expect(repliesStored(server)).toBe(before)

    // 20,000 characters at their widest: each escaped in JSON (6 bytes), each an emoji form-encoded (12 bytes).
    const escaped = JSON.stringify({ text: 'é'.repeat(20_000) }).replaceAll('é', '\\u00e9')
    expect(escaped.length).toBeGreaterThan(120_000)
    const wide = await rawRequest(server.url, {
      path: `/api/submissions/${id}/replies`,
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: escaped,
    })
    expect(wide.status).toBe(201)
    const emoji = await replyForm(server, id, { text: '🥚'.repeat(20_000) }, { Cookie: cookie })
    expect(emoji.status).toBe(303)
    expect(emoji.headers.location).toBe(`/farm-sales#submission-${id}`)
    expect(repliesStored(server)).toBe(before + 2)
  })

  it('keeps the larger body limit to the owner’s writing: elsewhere 16 KB still holds', async () => {
    const big = 'x'.repeat(20 * 1024)
    for (const path of ['/api/submissions', '/?index', '/sign-in', '/farm-sales/elsewhere', '/api/submissions/1']) {
      const answer = await rawRequest(server.url, {
        path,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
        body: `text=${big}`,
      })
      expect(answer.status, path).toBe(413)
    }
    const huge = await replyJson(server, 1, 'x'.repeat(300 * 1024), { Cookie: cookie })
    expect(huge.status).toBe(413)
  })

  it('gives the larger body limit only to the signed-in owner, on the reply paths as Remix routes them', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(40 * 1024) })
    const strangers: Array<Record<string, string>> = [{}, { Cookie: 'farm_owner=made-up' }]
    for (const headers of strangers) {
      for (const path of ['/api/submissions/1/replies', '/farm-sales', '/farm-sales/saved-replies']) {
        const answer = await rawRequest(server.url, {
          path,
          headers: { 'Content-Type': 'application/json', ...headers },
          body: big,
        })
        expect(answer.status, path).toBe(413)
      }
    }
    // Spellings Remix sends elsewhere keep the small limit, signed in or not.
    for (const path of ['//farm-sales', '/api%2Fsubmissions%2F1%2Freplies', '/api/submissions/1%2Freplies']) {
      const answer = await rawRequest(server.url, {
        path,
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        body: big,
      })
      expect(answer.status, path).toBe(413)
    }
    // Runs of slashes are one spelling of the API (decision 025's small ones): the reply path,
    // with its own limit, and the reply's own refusal of a text too long.
    const doubled = await rawRequest(server.url, {
      path: '//api//submissions/1/replies',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: big,
    })
    expect(doubled.status).toBe(400)
    expect(JSON.parse(doubled.text).error).toMatch(/characters/)
  })

  it('counts a line break as one character however the browser sends it, and refuses what no mail should carry', async () => {
    const id = await postLead(server)
    const before = repliesStored(server)
    // 20,000 characters with 100 line breaks, sent as a browser's form sends a textarea (CRLF).
    const lines = `${'a'.repeat(199)}\r\n`.repeat(100).slice(0, -2) + 'a'
    expect(lines.replaceAll('\r\n', '\n').length).toBe(20_000)
    expect((await replyForm(server, id, { text: lines }, { Cookie: cookie })).status).toBe(303)
    for (const text of ['hi\u0000there', 'half an egg \ud83e', '\u200b\u2060', 'bell\u0007']) {
      const answer = await replyJson(server, id, text, { Cookie: cookie })
      expect(answer.status, JSON.stringify(text)).toBe(400)
    }
    expect(repliesStored(server)).toBe(before + 1)
  })

  it('refuses a form that sends its text as a file, and stores nothing', async () => {
    const id = await postLead(server)
    const before = repliesStored(server)
    for (const [path, fields] of [
      ['/farm-sales', { intent: 'reply', id: String(id) }],
      ['/farm-sales/saved-replies', { intent: 'save', name: 'Eggs' }],
      ['/farm-sales/saved-replies', { intent: 'acknowledgement' }],
    ] as const) {
      const form = new FormData()
      for (const [name, value] of Object.entries(fields)) form.append(name, value)
      form.append('text', new Blob(['Hello from a file']), 'text.txt')
      const answer = await fetch(`${server.url}${path}`, { method: 'POST', headers: { Cookie: cookie }, body: form })
      expect(answer.status, path).toBe(400)
      expect(await answer.text()).toContain('Send the form’s fields as text, not as files.')
    }
    expect(repliesStored(server)).toBe(before)
    const saved = await rawRequest(server.url, {
      method: 'GET',
      path: '/farm-sales/saved-replies',
      headers: { Cookie: cookie },
    })
    expect(saved.text).not.toContain('[object File]')
  })

  it('keeps every line of the visitor’s message inside the quote, a lone CR too', async () => {
    const id = await postLead(
      server,
      JSON.stringify({
        name: 'Ann',
        email: 'quote@example.com',
        message: 'Could I order eggs please?\rP.S. from the farm: pay your deposit at http://evil.example',
      }),
    )
    expect((await replyJson(server, id, 'Yes.', { Cookie: cookie })).status).toBe(201)
    await expect
      .poll(
        () => mail.mails.find((sent) => !Array.isArray(sent.to) && sent.to?.value[0]?.address === 'quote@example.com'),
        {
          timeout: 10_000,
        },
      )
      .toBeTruthy()
    const sent = mail.mails.find(
      (each) => !Array.isArray(each.to) && each.to?.value[0]?.address === 'quote@example.com',
    )!
    const evil = String(sent.text)
      .split(/\r\n|\r|\n/)
      .filter((line) => line.includes('evil.example'))
    expect(evil).toEqual(['> P.S. from the farm: pay your deposit at http://evil.example'])
  })

  it('refuses a reply to a lead in the spam folder until it is marked ‘Not spam’', async () => {
    const spam = await postLead(
      server,
      JSON.stringify({ name: 'Bot', email: 'bot@example.com', message: 'Hi', website: 'https://spam.example' }),
    )
    const refused = await replyJson(server, spam, 'Hello', { Cookie: cookie })
    expect(refused.status).toBe(409)
    expect(JSON.parse(refused.text)).toEqual({
      error: 'This message is in the spam folder. Mark it ‘Not spam’ before replying to it.',
    })
    const form = await replyForm(server, spam, { text: 'Hello' }, { Cookie: cookie })
    expect(form.status).toBe(409)
    const rescued = await rawRequest(server.url, {
      method: 'PATCH',
      path: `/api/submissions/${spam}`,
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ spam: false }),
    })
    expect(rescued.status).toBe(200)
    expect((await replyJson(server, spam, 'Hello', { Cookie: cookie })).status).toBe(201)
  })

  it('makes one reply of a key sent twice, from the API and from a form, and refuses a key that is not one', async () => {
    const id = await postLead(server)
    const before = repliesStored(server)
    const first = await replyJson(server, id, 'Once', { Cookie: cookie, 'Idempotency-Key': 'double-click-1' })
    const again = await replyJson(server, id, 'Once', { Cookie: cookie, 'Idempotency-Key': 'double-click-1' })
    expect([first.status, again.status]).toEqual([201, 200])
    expect(JSON.parse(again.text).data.id).toBe(JSON.parse(first.text).data.id)
    const [one, two] = await Promise.all([
      replyForm(server, id, { text: 'Twice?', key: 'form-key-abc-1' }, { Cookie: cookie }),
      replyForm(server, id, { text: 'Twice?', key: 'form-key-abc-1' }, { Cookie: cookie }),
    ])
    expect([one.status, two.status]).toEqual([303, 303])
    expect(repliesStored(server)).toBe(before + 2)
    for (const key of ['short', 'x'.repeat(65), 'has space here', 'semi;colon;key']) {
      const bad = await replyJson(server, id, 'Hi', { Cookie: cookie, 'Idempotency-Key': key })
      expect(bad.status).toBe(400)
    }
    expect(repliesStored(server)).toBe(before + 2)
  })

  it('answers every other method and a wrong id in the one error shape', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const answer = await rawRequest(server.url, {
        method,
        path: '/api/submissions/1/replies',
        // Node's client sends a DELETE's body unframed unless told its length.
        headers: { 'Content-Type': 'application/json', 'Content-Length': '13', Cookie: cookie },
        body: '{"text":"Hi"}',
      })
      expect(answer.status, method).toBe(405)
      expect(answer.headers.allow).toBe('POST')
    }
    for (const path of [
      '/api/submissions/999999/replies',
      '/api/submissions/abc/replies',
      '/api/submissions/-1/replies',
    ]) {
      const answer = await rawRequest(server.url, {
        path,
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        body: '{"text":"Hi"}',
      })
      expect(answer.status, path).toBe(404)
      expect(JSON.parse(answer.text)).toHaveProperty('error')
    }
    const wrongAction = await rawRequest(server.url, {
      method: 'PATCH',
      path: '/api/submissions/1/replies/1',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: '{"action":"send-again"}',
    })
    expect(wrongAction.status).toBe(400)
    const notFailed = await rawRequest(server.url, {
      method: 'PATCH',
      path: '/api/submissions/999/replies/1',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: '{"action":"retry"}',
    })
    expect(notFailed.status).toBe(404)
  })
})

describe('the reply limit, at the shipped default', () => {
  let server: RunningServer
  let mail: MailServer
  beforeAll(async () => {
    mail = await startMailServer()
    server = await serve({
      env: { OWNER_PASSWORD: password, SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@farm.example' },
    })
  })
  afterAll(() => mail.close())
  // Registered after the mail server's hook, so it runs before it: the site stops first.
  const serve = serverPerFile()

  it('holds on every spelling and method, for the API and the form alike, once spent', async () => {
    const cookie = await signInAsOwner(server.url, password)
    const id = await postLead(server)
    const limit = Number(defaults.REPLY_RATE_LIMIT)
    for (let n = 0; n < limit; n++) {
      const answer =
        n % 2 === 0
          ? await replyJson(server, id, `Reply ${n}`, { Cookie: cookie })
          : await replyForm(server, id, { text: `Reply ${n}` }, { Cookie: cookie })
      expect(answer.status, `reply ${n}`).toBe(n % 2 === 0 ? 201 : 303)
    }
    const json = JSON.stringify({ text: 'One more' })
    const form = new URLSearchParams({ intent: 'reply', id: String(id), text: 'One more' }).toString()
    const attempts = [
      { path: `/api/submissions/${id}/replies`, type: 'application/json', body: json },
      { path: `/API/Submissions/${id}/Replies`, type: 'application/json', body: json },
      { path: `/api/submissions/${id}/replies/`, type: 'application/json', body: json },
      { path: `/api/submission%73/${id}/replie%73`, type: 'application/json', body: json },
      {
        path: `/api/submissions/${id}/replies?_data=routes/api.submissions.$id_.replies`,
        type: 'application/json',
        body: json,
      },
      { path: '/farm-sales', type: 'application/x-www-form-urlencoded', body: form },
      { path: '/FARM-SALES', type: 'application/x-www-form-urlencoded', body: form },
      { path: '/farm%2Dsales', type: 'application/x-www-form-urlencoded', body: form },
      { path: '/farm-sales?_data=routes/farm-sales', type: 'application/x-www-form-urlencoded', body: form },
    ]
    for (const { path, type, body } of attempts) {
      const answer = await rawRequest(server.url, { path, headers: { 'Content-Type': type, Cookie: cookie }, body })
      expect(answer.status, path).toBe(429)
      expect(answer.text, path).toContain('as many replies as can be sent in a minute')
    }
    // One owner: signing in again starts no fresh allowance.
    const again = await signInAsOwner(server.url, password)
    expect((await replyJson(server, id, 'From the phone', { Cookie: again })).status).toBe(429)
    // A refused reply spends nothing: a blank one is still told it is blank.
    expect((await replyJson(server, id, '  ', { Cookie: again })).status).toBe(400)
    // Trying a failed mail again is a reply sent too.
    const retry = await rawRequest(server.url, {
      method: 'PATCH',
      path: `/api/submissions/${id}/replies/1`,
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: '{"action":"retry"}',
    })
    expect(retry.status).toBe(429)
    const sqlite = new Sqlite(server.databasePath, { readonly: true })
    expect((sqlite.prepare('SELECT count(*) AS n FROM replies').get() as { n: number }).n).toBe(limit)
    sqlite.close()
  })
})

describe('when mail cannot go out as the farm', () => {
  const serve = serverPerTest()

  it('keeps an open inbox readable but refuses every reply, saying to claim the site first', async () => {
    const mail = await startMailServer()
    try {
      const server = await serve({ env: { SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@farm.example' } })
      const id = await postLead(server)
      const api = await replyJson(server, id, 'Hello')
      expect(api.status).toBe(403)
      expect(JSON.parse(api.text).error).toMatch(/^To reply to leads, claim the site first/)
      const settle = await rawRequest(server.url, {
        method: 'PATCH',
        path: `/api/submissions/${id}/replies/1`,
        headers: { 'Content-Type': 'application/json' },
        body: '{"action":"retry"}',
      })
      expect(settle.status).toBe(403)
      expect(JSON.parse(settle.text).error).toContain('claim the site first')
      // Reading stays open, as the spec has it.
      const history = await rawRequest(server.url, { method: 'GET', path: `/api/submissions/${id}/replies` })
      expect(history.status).toBe(200)
      const form = await replyForm(server, id, { text: 'Hello' }, {})
      expect(form.status).toBe(403)
      expect(form.text).toContain('claim the site first')
      const page = (await rawRequest(server.url, { method: 'GET', path: '/farm-sales' })).text
      expect(page).toContain('the site is not claimed yet')
      expect(page).not.toContain('Send reply')
      const saved = await rawRequest(server.url, {
        path: '/farm-sales/saved-replies',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'intent=save&name=Eggs&text=Hello',
      })
      expect(saved.status).toBe(403)
      const acknowledgement = await rawRequest(server.url, {
        path: '/farm-sales/saved-replies',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'intent=acknowledgement&text=Hello',
      })
      expect(acknowledgement.status).toBe(403)
      expect((await rawRequest(server.url, { method: 'GET', path: '/farm-sales/saved-replies' })).text).toContain(
        'claim the site first, and sign in to write them',
      )
      expect(repliesStored(server)).toBe(0)
    } finally {
      await mail.close()
    }
  })

  it('refuses replies with a reason naming SMTP_URL when no mail server is set', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    const cookie = await signInAsOwner(server.url, password)
    const id = await postLead(server)
    const api = await replyJson(server, id, 'Hello', { Cookie: cookie })
    expect(api.status).toBe(403)
    expect(JSON.parse(api.text).error).toBe(
      'To answer from here, set up mail in the settings (or set SMTP_URL and NOTIFY_EMAIL): replies go out by mail.',
    )
    const page = (await rawRequest(server.url, { method: 'GET', path: '/farm-sales', headers: { Cookie: cookie } }))
      .text
    expect(page).toContain('set SMTP_URL and NOTIFY_EMAIL')
    expect(repliesStored(server)).toBe(0)
  })
})
