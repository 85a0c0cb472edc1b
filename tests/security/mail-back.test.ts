// What comes back to the farm's mailbox is stranger input: a report that names another address
// stops no one else; a message over 1 MB, or a flood, is left or read in bounded rounds; the same
// answer twice is one; markup in an answer is only ever text; and what came back is read only by
// the signed-in owner, as plain text, on every spelling of its address.
import Sqlite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { mailBackSites } from '#tests/support/mail-back-site'
import { startMailStack, type MailStack } from '#tests/support/mail-stack'
import { rawRequest } from '#tests/support/raw-request'

let stack: MailStack
const sites = mailBackSites(() => stack)
const { site, postLead, reply, thread, farmMailTo, answer } = sites

beforeAll(async () => {
  stack = await startMailStack()
})
afterAll(async () => {
  await sites.stopAll()
  await stack?.stop()
})

const statusOf = (databasePath: string, email: string) =>
  readRows<{ status: string }>(databasePath, 'SELECT status FROM subscribers WHERE email = ?', email)[0]!.status

function report(kind: 'delivery-status' | 'feedback-report', fields: string[], messageId: string) {
  return [
    'From: MAILER-DAEMON@relay.example',
    `To: ${stack.farmAddress}`,
    'Subject: Undelivered Mail Returned to Sender',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=${kind}; boundary="r"`,
    '',
    '--r',
    `Content-Type: message/${kind}`,
    '',
    ...fields,
    '',
    '--r',
    'Content-Type: text/rfc822-headers',
    '',
    `Message-ID: ${messageId}`,
    '--r--',
    '',
  ].join('\r\n')
}

describe('reports read back', () => {
  it('that name another address than the mail went to stop no one else', async () => {
    const { server, cookie } = await site()
    const sqlite = new Sqlite(server.databasePath)
    for (const email of ['eve@remote.test', 'victim@remote.test']) {
      sqlite
        .prepare(
          `INSERT INTO subscribers (email, address_key, name, status, consent, added_by, subscribed_at, created_at)
           VALUES (?, ?, 'Someone', 'subscribed', 'asked at the stall', 'owner', ?, ?)`,
        )
        .run(email, email, Date.now(), Date.now())
    }
    sqlite.close()
    const sent = await fetch(`${server.url}/api/updates`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ subject: 'Cherries', text: 'Hello {name}.' }),
    })
    expect(sent.status).toBe(202)
    // Eve got her own update, and writes reports about it that name someone else.
    const toEve = await farmMailTo('eve@remote.test', /^Cherries$/)
    await stack.append(
      report(
        'delivery-status',
        ['Final-Recipient: rfc822; victim@remote.test', 'Action: failed', 'Status: 5.1.1'],
        toEve,
      ),
    )
    await stack.append(
      report('feedback-report', ['Feedback-Type: abuse', 'Original-Rcpt-To: victim@remote.test'], toEve),
    )
    await expect
      .poll(() => readRows(server.databasePath, 'SELECT kind, address, permanent FROM returned_mails ORDER BY id'), {
        timeout: 10_000,
      })
      .toEqual([
        { kind: 'bounce', address: 'eve@remote.test', permanent: 0 },
        { kind: 'complaint', address: 'eve@remote.test', permanent: 1 },
      ])
    expect(statusOf(server.databasePath, 'victim@remote.test')).toBe('subscribed')
    expect(statusOf(server.databasePath, 'eve@remote.test')).toBe('unsubscribed')
  })
})

describe('answers read back', () => {
  it('over 1 MB are left as they are; a flood of 205 messages is read in rounds; the same answer twice is one', async () => {
    const { server, cookie } = await site()
    const id = await postLead(server, 'hal@remote.test')
    await reply(server, cookie, id, 'We have hay.')
    const replyId = await farmMailTo('hal@remote.test', /^Re: /)
    const big = `From: hal@remote.test\r\nTo: farm@farm.test\r\nSubject: Big\r\nIn-Reply-To: ${replyId}\r\nMessage-ID: <big@remote.test>\r\n\r\n${'hay '.repeat(300_000)}\r\n`
    await stack.append(big)
    for (let n = 0; n < 205; n++) {
      await stack.append(
        `From: n${n}@remote.test\r\nTo: farm@farm.test\r\nSubject: Flood ${n}\r\n\r\nNot the farm's.\r\n`,
      )
    }
    const twice = `From: hal@remote.test\r\nTo: farm@farm.test\r\nSubject: Re: hay\r\nIn-Reply-To: ${replyId}\r\nMessage-ID: <once@remote.test>\r\n\r\nTen bales, please.\r\n`
    await stack.append(twice)
    await stack.append(twice)
    await expect
      .poll(
        async () =>
          (await thread(server, cookie, id)).filter((each) => each.kind === 'answer').map((each) => each.text),
        {
          timeout: 20_000,
        },
      )
      .toEqual(['Ten bales, please.'])
    const [bigOne] = (await stack.messages()).filter((message) => message.subject === 'Big')
    expect(bigOne!.flags).toEqual([])
    const [mark] = readRows<{ last_uid: number }>(server.databasePath, 'SELECT last_uid FROM mailbox_marks')
    const newest = Math.max(...(await stack.messages()).map((message) => message.uid))
    await expect
      .poll(
        () => readRows<{ last_uid: number }>(server.databasePath, 'SELECT last_uid FROM mailbox_marks')[0]!.last_uid,
      )
      .toBe(newest)
    expect(mark!.last_uid).toBeLessThanOrEqual(newest)
  })

  it('are text: markup in them is shown as text on the card, never run, and an HTML answer keeps no tag', async () => {
    const { server, cookie } = await site()
    const id = await postLead(server, 'ida@remote.test')
    await reply(server, cookie, id, 'We have eggs.')
    const replyId = await farmMailTo('ida@remote.test', /^Re: /)
    await answer('Ida <ida@remote.test>', replyId, 'Yes <script>alert(1)</script> <img src=x onerror=alert(2)>')
    await answer('Ida <ida@remote.test>', replyId, '', {
      html: '<p>Two <b>dozen</b></p><script>alert(3)</script><a href="javascript:alert(4)">here</a>',
      messageId: '<html-answer@remote.test>',
    })
    await expect
      .poll(async () => (await thread(server, cookie, id)).filter((each) => each.kind === 'answer').length, {
        timeout: 10_000,
      })
      .toBe(2)
    const [plain, fromHtml] = (await thread(server, cookie, id)).filter((each) => each.kind === 'answer')
    expect(plain!.text).toBe('Yes <script>alert(1)</script> <img src=x onerror=alert(2)>')
    // Tags and scripts go; a link's address stays, as words in brackets the card never makes a link.
    expect(fromHtml!.text).toBe('Two dozen\n\nhere [javascript:alert(4)]')
    const page = await (await fetch(`${server.url}/farm-sales`, { headers: { Cookie: cookie } })).text()
    expect(page).toContain('Yes &lt;script&gt;alert(1)&lt;/script&gt;')
    expect(page).not.toContain('<script>alert(1)')
    expect(page).not.toContain('<img src=x')
  })
})

describe('what came back, as it came', () => {
  it('is the signed-in owner’s only, plain text, on every spelling and method', async () => {
    const { server, cookie } = await site()
    const sqlite = new Sqlite(server.databasePath)
    const { lastInsertRowid: id } = sqlite
      .prepare(
        `INSERT INTO returned_mails (kind, address, address_key, permanent, status, words, source, received_at)
         VALUES ('bounce', 'jo@remote.test', 'jo@remote.test', 1, '5.1.1', 'gone', ?, ?)`,
      )
      .run('<html><script>alert(1)</script></html>', Date.now())
    sqlite.close()
    const path = `/farm-sales/updates/returned/${id}`
    expect((await fetch(`${server.url}${path}`)).status).toBe(401)
    const asOwner = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } })
    expect(asOwner.status).toBe(200)
    expect(asOwner.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(asOwner.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await asOwner.text()).toBe('<html><script>alert(1)</script></html>')
    for (const spelling of [
      `/farm-sales/updates/returned/${id}/`,
      `//farm-sales//updates/returned/${id}`,
      `/farm%2Dsales/updates/returned/${id}`,
    ]) {
      const answer = await rawRequest(server.url, { method: 'GET', path: spelling })
      expect([401, 404]).toContain(answer.status)
      expect(answer.text).not.toContain('alert(1)')
    }
    for (const wrong of ['x', '0', '99999', `${id}.5`]) {
      expect(
        (await fetch(`${server.url}/farm-sales/updates/returned/${wrong}`, { headers: { Cookie: cookie } })).status,
      ).toBe(404)
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const sent = await fetch(`${server.url}${path}`, { method, headers: { Cookie: cookie, Origin: server.url } })
      expect(sent.status).toBe(405)
    }
  })
})
