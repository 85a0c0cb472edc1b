// What comes back to the farm's mailbox is stranger input: a report that names another address
// stops no one else, and sent again counts once; a forged sender lifts no stop; answers to an
// update are capped and counted once; mail shaped to make the patterns slow reads in one pass; a message over 1 MB, or a flood, is left or read in bounded rounds; the same
// answer twice is one; markup in an answer is only ever text; and what came back is read only by
// the signed-in owner, as plain text, on every spelling of its address.
import Sqlite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { startMailServer } from '#tests/support/mail-server'
import { tempDatabasePath } from '#tests/support/server'
import { mailBackSites } from '#tests/support/mail-back-site'
import { startMailStack, type MailStack } from '#tests/support/mail-stack'
import { rawRequest } from '#tests/support/raw-request'
import { trimQuotedHistory } from '#app/mail-back/quoted-history'
import { readBack } from '#app/mail-back/read-back.server'

let stack: MailStack
const sites = mailBackSites(() => stack)
const { site, postLead, reply, thread, farmMailTo, answer } = sites

beforeAll(async () => {
  stack = await startMailStack()
})
afterAll(async () => {
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
    sites.subscribe(server.databasePath, ['eve@remote.test', 'victim@remote.test'])
    expect((await sites.sendUpdate(server, cookie, 'Cherries')).status).toBe(202)
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

describe('a bounce read before the mail server answers', () => {
  it('stays bounced when the server’s late 250 comes: what came back is never written over by what was learned before it', async () => {
    // The farm's mail server holds the reply at DATA until its bounce has been read back.
    let release: () => void = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let heldId: string | null = null
    const held = await startMailServer({
      hold: (mail) => {
        if (!/held at DATA/.test(mail.text ?? '')) return null
        heldId = mail.messageId ?? null
        return released
      },
    })
    try {
      const { server, cookie } = await site(tempDatabasePath(), { SMTP_URL: held.url })
      const id = await postLead(server, 'held@remote.test')
      await reply(server, cookie, id, 'This one is held at DATA.')
      await expect.poll(() => heldId, { timeout: 15_000 }).not.toBeNull()
      await stack.append(
        report(
          'delivery-status',
          ['Final-Recipient: rfc822; held@remote.test', 'Action: failed', 'Status: 5.1.1'],
          heldId!,
        ),
      )
      const states = () =>
        readRows<{ state: string }>(
          server.databasePath,
          "SELECT d.state FROM deliveries d JOIN replies r ON r.id = d.reply_id WHERE d.kind = 'visitor-mail' AND r.kind = 'reply' ORDER BY d.id",
        )
      await expect.poll(states, { timeout: 15_000 }).toEqual([{ state: 'bounced' }])
      release()
      // The control: a second reply goes out after the first's 250 was taken and marked (one round at a time).
      await reply(server, cookie, id, 'And this one goes through.')
      await expect.poll(states, { timeout: 15_000 }).toEqual([{ state: 'bounced' }, { state: 'sent' }])
      expect(held.mails.map((mail) => mail.messageId)).toContain(heldId)
      expect(
        (await thread(server, cookie, id)).filter((mail) => mail.kind === 'reply').map((mail) => mail.state),
      ).toEqual(['bounced', 'sent'])
    } finally {
      release()
      await held.close()
    }
  })
})

describe('answers read back', () => {
  it('over 1 MB join their card as too large to read, from their headers; a flood of 205 messages is read in rounds; the same answer twice is one', async () => {
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
        // 205 messages read over IMAP, beside other test files on a 2-core machine.
        { timeout: 60_000 },
      )
      .toEqual(['Big', 'Ten bales, please.'])
    const answers = (await thread(server, cookie, id)).filter((each) => each.kind === 'answer')
    expect(answers.map((each) => each.tooLarge)).toEqual([true, false])
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

describe('a stranger’s mail shaped to freeze the reader', () => {
  it('is read no further than its headers when it answers nothing; an answer that takes past the time limit is kept as too large to read, and the next is read', async () => {
    const { server, cookie } = await site()
    const id = await postLead(server, 'ivy@remote.test')
    await reply(server, cookie, id, 'We have plums.')
    const replyId = await farmMailTo('ivy@remote.test', /^Re: /)
    // Nested lists: seconds of HTML conversion for each one (11 s on the site's thread before).
    const lists = '<ul><li>a'.repeat(110_000)
    const html = (headers: string[]) =>
      [...headers, 'To: farm@farm.test', 'Content-Type: text/html; charset=utf-8', '', lists, ''].join('\r\n')
    for (let n = 0; n < 3; n++) await stack.append(html([`From: s${n}@stranger.test`, `Subject: Hello ${n}`]))
    await stack.append(
      html(['From: ivy@remote.test', 'Subject: Lists', `In-Reply-To: ${replyId}`, 'Message-ID: <lists@remote.test>']),
    )
    await answer('Ivy <ivy@remote.test>', replyId, 'Four punnets.', { messageId: '<after@remote.test>' })
    await expect
      .poll(
        async () =>
          (await thread(server, cookie, id))
            .filter((each) => each.kind === 'answer')
            .map((each) => ({ text: each.text, tooLarge: each.tooLarge })),
        { timeout: 30_000 },
      )
      .toEqual([
        { text: 'Lists', tooLarge: true },
        { text: 'Four punnets.', tooLarge: false },
      ])
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    const page = await (await fetch(`${server.url}/farm-sales`, { headers: { Cookie: cookie } })).text()
    expect(page).toContain('Too large to read here: the whole mail is in the farm’s mailbox')
    // The strangers' mail stays as it came, and the mark moves past all of it.
    const strangers = (await stack.messages()).filter((message) => /^Hello \d$/.test(message.subject ?? ''))
    expect(strangers.map((message) => message.flags)).toEqual([[], [], []])
    await expect
      .poll(
        () => readRows<{ last_uid: number }>(server.databasePath, 'SELECT last_uid FROM mailbox_marks')[0]!.last_uid,
      )
      .toBeGreaterThanOrEqual(Math.max(...strangers.map((message) => message.uid)))
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

describe('mail shaped against the reader', () => {
  // Each of these took minutes with patterns that backtrack, blocking the whole site: no time is
  // asserted, the test's own timeout is what a freeze would meet.
  it('reads a forged bounce of a million line breaks, and an answer of 300,000 quoted lines, in one pass', async () => {
    expect(
      await readBack(
        Buffer.from(
          `From: MAILER-DAEMON@x.example\r\nSubject: Undelivered Mail Returned to Sender\r\n\r\n${'\n'.repeat(1_000_000)}`,
        ),
      ),
    ).toMatchObject({ kind: 'bounce', failures: [] })
    const quoted = await readBack(
      Buffer.from(`From: a@x.example\r\nIn-Reply-To: <a@b>\r\n\r\nYes.\n${'> \nx\n'.repeat(150_000)}`),
    )
    expect(quoted.kind).toBe('mail')
    // Quotes between written lines are not a history below them: all of it is kept.
    const interleaved = `Yes.\n${'>\nx\n'.repeat(200_000)}`
    expect(trimQuotedHistory(interleaved)).toBe(interleaved.trim())
    // Lines that open like each language's 'On … wrote:' and repeat its verb, the most the reader takes.
    for (const [opens, verb] of [
      ['On', 'wrote'],
      ['Op', 'schreef'],
      ['Le', 'a écrit'],
      ['Em', 'escreveu'],
    ]) {
      const forged = `Yes.\n${`${opens} ${`${verb} `.repeat(80)}x\n`.repeat(80)}`.slice(0, 40_000)
      expect(trimQuotedHistory(forged)).toBe(forged.trim())
    }
  })

  it('reads a read receipt and a delay warning as notices: nothing reopens, nothing counts', async () => {
    const receipt = await readBack(
      Buffer.from(
        'From: a@x.example\r\nIn-Reply-To: <r@farm.test>\r\nContent-Type: multipart/report; report-type=disposition-notification; boundary="b"\r\n\r\n--b\r\nContent-Type: message/disposition-notification\r\n\r\nDisposition: manual-action/MDN-sent-manually; displayed\r\n--b--\r\n',
      ),
    )
    expect(receipt).toEqual({ kind: 'notice' })
    const delayed = await readBack(
      Buffer.from(
        'From: MAILER-DAEMON@x.example\r\nContent-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; x\r\n\r\nFinal-Recipient: rfc822; a@x.example\r\nAction: delayed\r\nStatus: 4.4.1\r\n--b--\r\n',
      ),
    )
    expect(delayed).toEqual({ kind: 'notice' })
  })
})

describe('what a stranger can make of the reader', () => {
  it('a complaint sent again counts once, and a complaint about an acknowledgement never stops updates', async () => {
    const { server, cookie } = await site(undefined, { VISITOR_ACK: 'true' })
    sites.subscribe(server.databasePath, ['pat@remote.test'])
    const update = (subject: string) => sites.sendUpdate(server, cookie, subject)
    // One update mail sent in the 30 days: one complaint about it would be 100 %.
    expect((await update('Plums')).status).toBe(202)
    await farmMailTo('pat@remote.test', /^Plums$/)
    await postLead(server, 'mo@remote.test')
    const ack = await farmMailTo('mo@remote.test', /./)
    const complaint = report('feedback-report', ['Feedback-Type: abuse', 'Original-Rcpt-To: mo@remote.test'], ack)
    for (let n = 0; n < 5; n++) await stack.append(complaint)
    const complaints = () =>
      readRows(server.databasePath, "SELECT count(*) AS n FROM returned_mails WHERE kind = 'complaint'")
    await expect.poll(complaints, { timeout: 10_000 }).toEqual([{ n: 1 }])
    await expect
      .poll(() => readRows(server.databasePath, 'SELECT last_uid FROM mailbox_marks')[0], { timeout: 10_000 })
      .toEqual({
        last_uid: Math.max(...(await stack.messages()).map((message) => message.uid)),
      })
    expect(complaints()).toEqual([{ n: 1 }])
    expect((await update('More plums')).status).toBe(202)
  })

  it('an answer from a forged sender lifts no one’s stop; a form naming a bounced address acknowledges it but does not subscribe it again', async () => {
    const { server, cookie } = await site(undefined, { VISITOR_ACK: 'true' })
    sites.subscribe(server.databasePath, ['vic@remote.test'], 'undeliverable')
    const sqlite = new Sqlite(server.databasePath)
    for (const [address, kind] of [
      ['vic@remote.test', 'bounce'],
      ['val@remote.test', 'complaint'],
    ]) {
      const returned = sqlite
        .prepare(
          `INSERT INTO returned_mails (kind, address, address_key, permanent, source, received_at) VALUES (?, ?, ?, 1, 'as it came', ?)`,
        )
        .run(kind, address, address, Date.now())
      sqlite
        .prepare('INSERT INTO mail_suppressions (address_key, kind, returned_mail_id, since) VALUES (?, ?, ?, ?)')
        .run(address, kind, returned.lastInsertRowid, Date.now())
    }
    sqlite.close()
    const stops = () =>
      readRows<{ address_key: string }>(server.databasePath, 'SELECT address_key FROM mail_suppressions ORDER BY 1')
    // Mallory answers her own acknowledgement as Vic, then as Val.
    await postLead(server, 'mallory@remote.test')
    const ack = await farmMailTo('mallory@remote.test', /./)
    await answer('Vic <vic@remote.test>', ack, 'It is me, Vic.')
    await answer('Val <val@remote.test>', ack, 'It is me, Val.', { messageId: '<val-forged@remote.test>' })
    const lead = readRows<{ id: number }>(
      server.databasePath,
      "SELECT id FROM submissions WHERE email = 'mallory@remote.test'",
    )[0]!.id
    await expect
      .poll(async () => (await thread(server, cookie, lead)).filter((each) => each.kind === 'answer').length, {
        timeout: 10_000,
      })
      .toBe(2)
    expect(stops()).toEqual([{ address_key: 'val@remote.test' }, { address_key: 'vic@remote.test' }])
    // The form with Vic's address: Vic is acknowledged again, but stays off the updates.
    await postLead(server, 'vic@remote.test')
    await farmMailTo('vic@remote.test', /./)
    expect(stops()).toEqual([{ address_key: 'val@remote.test' }])
    expect(readRows(server.databasePath, "SELECT status FROM subscribers WHERE email = 'vic@remote.test'")).toEqual([
      { status: 'undeliverable' },
    ])
    // Val complained: the form never acknowledges them again. What a lead is owed is written in its
    // own transaction, before the form is answered: Val's lead is kept (Vic's, above, was acknowledged).
    await postLead(server, 'val@remote.test')
    expect(
      readRows(
        server.databasePath,
        "SELECT kind FROM replies WHERE to_address = 'val@remote.test' AND kind <> 'answer'",
      ),
    ).toEqual([])
    expect(
      stack.remote.mails.some((mail) => !Array.isArray(mail.to) && mail.to?.value[0]?.address === 'val@remote.test'),
    ).toBe(false)
  })

  it('answers to an update: the same mail twice is one lead, and one subscriber’s answers past three stay in the mailbox', async () => {
    const { server, cookie } = await site()
    sites.subscribe(server.databasePath, ['quin@remote.test'])
    expect((await sites.sendUpdate(server, cookie, 'Quinces')).status).toBe(202)
    const update = await farmMailTo('quin@remote.test', /^Quinces$/)
    const once = `From: quin@remote.test\r\nTo: farm@farm.test\r\nSubject: Re: Quinces\r\nIn-Reply-To: ${update}\r\nMessage-ID: <quin-1@remote.test>\r\n\r\nTwo quinces please.\r\n`
    await stack.append(once)
    await stack.append(once)
    for (let n = 2; n <= 5; n++) {
      await answer('quin@remote.test', update, `Answer number ${n}.`, { subject: `Quince answer ${n}` })
    }
    const leads = () =>
      readRows<{ message: string }>(server.databasePath, 'SELECT message FROM submissions ORDER BY id')
    // The mail server may deliver the four answers in any order: they are read in the order they arrived.
    let answers: Array<{ uid: number; subject: string }> = []
    await expect
      .poll(
        async () => {
          answers = (await stack.messages())
            .filter((message) => message.subject.startsWith('Quince answer '))
            .sort((a, b) => a.uid - b.uid)
          return answers.length
        },
        { timeout: 15_000 },
      )
      .toBe(4)
    // Every answer read: the mark is past the last one delivered.
    const last = answers.at(-1)!.uid
    await expect
      .poll(
        () => readRows<{ last_uid: number }>(server.databasePath, 'SELECT last_uid FROM mailbox_marks')[0]!.last_uid,
        {
          timeout: 15_000,
        },
      )
      .toBeGreaterThanOrEqual(last)
    const firstTwo = answers
      .slice(0, 2)
      .map(({ subject }) => `Answer number ${subject.slice('Quince answer '.length)}.`)
    expect(leads()).toEqual([{ message: 'Two quinces please.' }, ...firstTwo.map((message) => ({ message }))])
  })

  it('a mail from someone the site was made to forget after they wrote it (read again after a restore) is not kept', async () => {
    const { server, cookie } = await site()
    const id = await postLead(server, 'oli@remote.test')
    await reply(server, cookie, id, 'We have walnuts.')
    const replyId = await farmMailTo('oli@remote.test', /^Re: /)
    const forgot = await fetch(`${server.url}/api/people?email=${encodeURIComponent('nia@remote.test')}`, {
      method: 'DELETE',
      headers: { Cookie: cookie, Origin: server.url },
    })
    expect(forgot.status).toBe(404)
    const written = new Date(Date.now() - 60 * 60_000).toUTCString()
    await stack.append(
      `From: Nia <nia@remote.test>\r\nTo: farm@farm.test\r\nSubject: Re: walnuts\r\nDate: ${written}\r\nIn-Reply-To: ${replyId}\r\nMessage-ID: <nia-1@remote.test>\r\n\r\nNia here, written before I was forgotten.\r\n`,
    )
    await answer('Oli <oli@remote.test>', replyId, 'A bag of walnuts, please.')
    await expect
      .poll(
        async () =>
          (await thread(server, cookie, id)).filter((each) => each.kind === 'answer').map((each) => each.text),
        {
          timeout: 10_000,
        },
      )
      .toEqual(['A bag of walnuts, please.'])
    expect(readRows(server.databasePath, "SELECT id FROM replies WHERE to_address = 'nia@remote.test'")).toEqual([])
  })
})
