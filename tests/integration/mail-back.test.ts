// Mail that comes back, through Debian's real mail servers on loopback: Postfix relays the farm's
// mail and delivers what comes back into Dovecot, which the site reads over IMAP with TLS. A
// visitor's answer joins its card live (IDLE); a restart or kill -9 never adds one twice; mail
// that is not the site's is left untouched; a remote 550 at Postfix bounces an update and stops
// that subscriber; an abuse report unsubscribes; an out-of-office reopens nothing.
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Submission } from '#app/leads/lead'
import type { UpdateReport } from '#app/updates/update'
import { readRows } from '#tests/support/database'
import { connectLive } from '#tests/support/live-client'
import { mailBackSites, watching } from '#tests/support/mail-back-site'
import { startMailStack, type MailStack } from '#tests/support/mail-stack'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { freePort, mailboxState, tempDatabasePath, type RunningServer } from '#tests/support/server'

let stack: MailStack
const sites = mailBackSites(() => stack)
const { serve, site, postLead, reply, thread, farmMailTo, answer } = sites

beforeAll(async () => {
  stack = await startMailStack({ refuseRecipient: (address) => address.startsWith('gone@') })
})
afterAll(async () => {
  await stack?.stop()
})

describe('a visitor’s answer', () => {
  it('joins the card’s thread live, trimmed of its quote, reopens the lead, tells the owner, and is never added twice across kill -9', async () => {
    const databasePath = tempDatabasePath()
    const posts: Array<{ type: string; data: { lead: { id: number }; answer: { text: string; from: string } } }> = []
    const receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        posts.push(JSON.parse(body))
        res.end()
      })
    }).listen(0, '127.0.0.1')
    await new Promise((resolve) => receiver.once('listening', resolve))
    const webhook = {
      WEBHOOK_URL: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/leads`,
      WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
    }
    const { server, cookie } = await site(databasePath, webhook)
    // Mail in the owner's mailbox that is not the site's, one claiming a Message-ID the site never sent.
    await stack.append(
      'From: Neighbour <ned@remote.test>\r\nTo: farm@farm.test\r\nSubject: Fence\r\nMessage-ID: <n1@remote.test>\r\n\r\nThe fence is down.\r\n',
    )
    await stack.append(
      'From: Mallory <mallory@remote.test>\r\nTo: farm@farm.test\r\nSubject: Re: eggs\r\nIn-Reply-To: <lead.0123456789abcdef0123456789abcdef@farm.test>\r\nMessage-ID: <m1@remote.test>\r\n\r\nAttach me.\r\n',
    )
    const before = (await stack.messages()).filter((message) => ['Fence', 'Re: eggs'].includes(message.subject))
    expect(before).toHaveLength(2)

    const id = await postLead(server, 'ann@remote.test')
    await reply(server, cookie, id, 'Yes, we have eggs on Saturday.')
    const replyId = await farmMailTo('ann@remote.test', /^Re: /)
    const live = await connectLive(server.wsUrl, { Cookie: cookie })
    await answer(
      'Ann Baker <ann@remote.test>',
      replyId,
      'Lovely, two dozen please.\n\nOn Thu, 26 Nov 2026 at 10:00, Bramble Hill Farm <farm@farm.test> wrote:\n> Yes, we have eggs on Saturday.\n',
      { attachments: [{ filename: 'map.txt', content: 'the lane by the church' }] },
    )
    // Told by IDLE: on the card within 5 s of Postfix taking it.
    const until = Date.now() + 5_000
    let card: Submission | undefined
    while (!card) {
      const message = await live.next(Math.max(1, until - Date.now()))
      const data = message.data as unknown as Submission
      if (message.type === 'SUBMISSION_UPDATED' && data.replies.some((each) => each.kind === 'answer')) card = data
    }
    expect(card.status).toBe('new')
    const answered = card.replies.find((each) => each.kind === 'answer')!
    expect(answered.text).toBe('Lovely, two dozen please.')
    expect(answered.state).toBe('received')
    expect(answered.otherSender).toBeNull()
    expect(answered.attachments).toEqual([{ name: 'map.txt', bytes: 22 }])
    live.close()
    // Told as a new lead is: the owner's mail (into the farm's own mailbox here) and the webhook.
    await expect
      .poll(async () => (await stack.messages()).some((message) => message.subject === 'Ann Baker replied'), {
        timeout: 10_000,
      })
      .toBe(true)
    await expect
      .poll(() => posts.find((post) => post.type === 'lead.replied'), { timeout: 10_000 })
      .toMatchObject({
        data: { lead: { id }, answer: { text: 'Lovely, two dozen please.', from: 'ann@remote.test' } },
      })

    // Killed, and started again on the same database: nothing is read twice.
    await server.stop('SIGKILL')
    const again = await site(databasePath, webhook)
    await answer('Ann Baker <ann@remote.test>', replyId, 'And a jar of honey.')
    await expect
      .poll(
        async () => (await thread(again.server, again.cookie, id)).filter((each) => each.kind === 'answer').length,
        { timeout: 10_000 },
      )
      .toBe(2)
    const answers = (await thread(again.server, again.cookie, id))
      .filter((each) => each.kind === 'answer')
      .map((each) => each.text)
    expect(answers).toEqual(['Lovely, two dozen please.', 'And a jar of honey.'])
    const rows = readRows<{ n: number }>(databasePath, "SELECT count(*) AS n FROM replies WHERE kind = 'answer'")
    expect(rows[0]!.n).toBe(2)
    // Not the site's: not attached anywhere, and left exactly as they were (no flag, no move).
    expect(
      readRows(databasePath, "SELECT id FROM replies WHERE text LIKE '%Attach me%' OR text LIKE '%fence%'"),
    ).toEqual([])
    const after = (await stack.messages()).filter((message) => ['Fence', 'Re: eggs'].includes(message.subject))
    expect(after).toEqual(before)
    receiver.close()
  })

  it('to the owner’s own answer from their mail program finds its lead by the lead mail the owner answered', async () => {
    const { server, cookie } = await site()
    const id = await postLead(server, 'cal@remote.test')
    // The owner answers the lead mail in their own mail program: the visitor's answer names that
    // mail in In-Reply-To, and the site's lead mail in References.
    await expect
      .poll(
        () =>
          readRows<{ key: string | null; state: string }>(
            server.databasePath,
            `SELECT receipt_key AS key, state FROM deliveries WHERE kind = 'owner-mail' AND submission_id = ${id}`,
          )[0]?.state,
        { timeout: 10_000 },
      )
      .toBe('sent')
    const [{ key }] = readRows<{ key: string }>(
      server.databasePath,
      `SELECT receipt_key AS key FROM deliveries WHERE kind = 'owner-mail' AND submission_id = ${id}`,
    ) as [{ key: string }]
    const leadMail = `<${key}@farm.test>`
    await stack.send({
      from: 'Cal <cal@remote.test>',
      to: stack.farmAddress,
      subject: 'Re: New lead from Ann Baker',
      inReplyTo: '<owner-own-program.1@farm.test>',
      references: [leadMail, '<owner-own-program.1@farm.test>'],
      text: 'Thanks, Saturday suits me.',
    })
    await expect
      .poll(
        async () =>
          (await thread(server, cookie, id))
            .filter((each) => each.kind !== 'confirmation')
            .map((each) => [each.kind, each.text]),
        { timeout: 10_000 },
      )
      .toEqual([['answer', 'Thanks, Saturday suits me.']])
  })

  it('from another address is shown as such; an out-of-office joins the thread without reopening the lead', async () => {
    const { server, cookie } = await site()
    const id = await postLead(server, 'bea@remote.test')
    await reply(server, cookie, id, 'We deliver on Fridays.')
    const replyId = await farmMailTo('bea@remote.test', /^Re: /)
    await answer('Bea <bea@remote.test>', replyId, 'I am away until Monday.', {
      subject: 'Out of office: your message',
      headers: { 'Auto-Submitted': 'auto-replied' },
    })
    await expect
      .poll(async () => (await thread(server, cookie, id)).some((each) => each.kind === 'automatic-answer'), {
        timeout: 10_000,
      })
      .toBe(true)
    const handled = readRows<{ status: string }>(server.databasePath, `SELECT status FROM submissions WHERE id = ${id}`)
    expect(handled[0]!.status).toBe('handled')
    await answer('Bea’s partner <sam@remote.test>', replyId, 'Bea asked me to say yes.')
    await expect
      .poll(async () => (await thread(server, cookie, id)).find((each) => each.kind === 'answer')?.otherSender, {
        timeout: 10_000,
      })
      .toBe('sam@remote.test')
  })
})

describe('updates', () => {
  const seedSubscribers = sites.subscribe
  async function sendUpdate(server: RunningServer, cookie: string, subject: string) {
    const sent = await sites.sendUpdate(server, cookie, subject)
    expect(sent.status).toBe(202)
    return sent.id
  }
  const report = async (server: RunningServer, cookie: string, id: number) =>
    (await (await fetch(`${server.url}/api/updates/${id}`, { headers: { Cookie: cookie } })).json()) as UpdateReport
  const status = (databasePath: string, email: string) =>
    readRows<{ status: string }>(databasePath, `SELECT status FROM subscribers WHERE email = '${email}'`)[0]!.status

  it('a remote 550 at Postfix comes back as a bounce: the mail is bounced, the subscriber stopped, the report says so', async () => {
    const { server, cookie } = await site()
    await seedSubscribers(server.databasePath, ['cat@remote.test', 'gone@remote.test'])
    const id = await sendUpdate(server, cookie, 'Asparagus')
    // Postfix accepted both: the relay's report says sent 2 until its bounce comes back.
    await expect.poll(async () => (await report(server, cookie, id)).bounced, { timeout: 20_000 }).toBe(1)
    const done = await report(server, cookie, id)
    expect(done).toMatchObject({ sent: 1, failed: 0, bounced: 1 })
    expect(status(server.databasePath, 'gone@remote.test')).toBe('undeliverable')
    expect(status(server.databasePath, 'cat@remote.test')).toBe('subscribed')
    const kept = readRows<{ words: string; permanent: number; status: string }>(
      server.databasePath,
      "SELECT words, permanent, status FROM returned_mails WHERE kind = 'bounce'",
    )
    expect(kept).toEqual([
      { words: expect.stringContaining('550 5.1.1 <gone@remote.test>'), permanent: 1, status: '5.1.1' },
    ])

    // The owner reads it on the updates page (no JavaScript needed), opens it as it came, and undoes the stop.
    const page = await (await fetch(`${server.url}/farm-sales/updates`, { headers: { Cookie: cookie } })).text()
    expect(page).toContain('What came back')
    expect(page).toContain('Bounced<!-- -->: <!-- -->gone@remote.test')
    const [{ id: returnedId }] = readRows<{ id: number }>(server.databasePath, 'SELECT id FROM returned_mails') as [
      { id: number },
    ]
    const asItCame = await fetch(`${server.url}/farm-sales/updates/returned/${returnedId}`, {
      headers: { Cookie: cookie },
    })
    expect(asItCame.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(asItCame.headers.get('content-security-policy')).toContain('sandbox')
    expect(await asItCame.text()).toContain('Status: 5.1.1')
    const undo = await fetch(`${server.url}/farm-sales/updates`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
      body: new URLSearchParams({ intent: 'mail-again', id: String(returnedId) }).toString(),
    })
    expect(undo.status).toBe(303)
    expect(status(server.databasePath, 'gone@remote.test')).toBe('subscribed')
    expect(readRows(server.databasePath, 'SELECT address_key FROM mail_suppressions')).toEqual([])
  })

  it('three mails to one address failing for now in 30 days stop it; two do not; a report sent again counts once', async () => {
    const { server, cookie } = await site()
    await seedSubscribers(server.databasePath, ['full@remote.test'])
    const delayed = (messageId: string) =>
      stack.append(
        [
          'From: MAILER-DAEMON@relay.example',
          `To: ${stack.farmAddress}`,
          'Subject: Undelivered Mail Returned to Sender',
          'MIME-Version: 1.0',
          'Content-Type: multipart/report; report-type=delivery-status; boundary="d"',
          '',
          '--d',
          'Content-Type: message/delivery-status',
          '',
          'Reporting-MTA: dns; relay.example',
          '',
          'Final-Recipient: rfc822; full@remote.test',
          'Action: failed',
          'Status: 4.2.2',
          'Diagnostic-Code: smtp; 452 4.2.2 Mailbox full',
          '',
          '--d',
          'Content-Type: text/rfc822-headers',
          '',
          `Message-ID: ${messageId}`,
          '--d--',
          '',
        ].join('\r\n'),
      )
    const count = () => readRows<{ n: number }>(server.databasePath, 'SELECT count(*) AS n FROM returned_mails')[0]!.n
    for (const [n, subject] of ['Pumpkins', 'Squash', 'Apples'].entries()) {
      await sendUpdate(server, cookie, subject)
      const sent = await farmMailTo('full@remote.test', new RegExp(`^${subject}$`))
      await delayed(sent)
      // The same report again is one failure of that mail.
      await delayed(sent)
      await expect.poll(count, { timeout: 10_000 }).toBe(n + 1)
      if (n < 2) expect(status(server.databasePath, 'full@remote.test')).toBe('subscribed')
    }
    await expect.poll(() => status(server.databasePath, 'full@remote.test'), { timeout: 10_000 }).toBe('undeliverable')
  })

  it('an abuse report (ARF) unsubscribes at once and counts as a complaint; an answer to an update is a lead of its own', async () => {
    const { server, cookie } = await site()
    await seedSubscribers(server.databasePath, ['dan@remote.test', 'eve@remote.test'])
    const id = await sendUpdate(server, cookie, 'Strawberries')
    const toDan = await farmMailTo('dan@remote.test', /^Strawberries$/)
    const toEve = await farmMailTo('eve@remote.test', /^Strawberries$/)
    const boundary = 'arf-boundary'
    await stack.append(
      [
        'From: Feedback Loop <fbl@isp.example>',
        `To: ${stack.farmAddress}`,
        'Subject: Abuse report',
        'MIME-Version: 1.0',
        `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
        '',
        `--${boundary}`,
        'Content-Type: text/plain',
        '',
        'This is an email abuse report.',
        `--${boundary}`,
        'Content-Type: message/feedback-report',
        '',
        'Feedback-Type: abuse',
        'User-Agent: isp-fbl/1.0',
        'Version: 1',
        'Original-Rcpt-To: dan@remote.test',
        `--${boundary}`,
        'Content-Type: text/rfc822-headers',
        '',
        `From: ${stack.farmAddress}`,
        'To: dan@remote.test',
        'Subject: Strawberries',
        `Message-ID: ${toDan}`,
        `--${boundary}--`,
        '',
      ].join('\r\n'),
    )
    await expect.poll(() => status(server.databasePath, 'dan@remote.test'), { timeout: 10_000 }).toBe('unsubscribed')
    expect((await report(server, cookie, id)).complained).toBe(1)
    // One complaint in two mails is far past 0.3 %: no update goes out, and the page says why.
    const refused = await fetch(`${server.url}/api/updates`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ subject: 'More strawberries', text: 'Hello {name}.' }),
    })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^No update can go out: 1 of the 2 update mails of the last 30 days were reported as spam \(50\.00 %, over 0\.3 %\)/,
    )
    const page = await (await fetch(`${server.url}/farm-sales/updates`, { headers: { Cookie: cookie } })).text()
    expect(page).toContain('No update can go out: more than 0.3 %')

    await answer('Eve <eve@remote.test>', toEve, 'Yes, two punnets please!')
    await expect
      .poll(
        () =>
          readRows<{ email: string; message: string; answers_update: number }>(
            server.databasePath,
            'SELECT email, message, answers_update FROM submissions',
          ),
        { timeout: 10_000 },
      )
      .toEqual([{ email: 'eve@remote.test', message: 'Yes, two punnets please!', answers_update: id }])
    // The card and the API say which update it answers (before: stored, never shown).
    const leads = (await (
      await fetch(`${server.url}/api/submissions`, { headers: { Cookie: cookie } })
    ).json()) as Array<{
      answersUpdate: unknown
    }>
    expect(leads.map((lead) => lead.answersUpdate)).toEqual([{ id, subject: 'Strawberries' }])
    const inbox = await (await fetch(`${server.url}/farm-sales`, { headers: { Cookie: cookie } })).text()
    expect(inbox).toContain(`href="/farm-sales/updates#update-${id}"`)
    expect(inbox).toContain('Answer to your update “Strawberries”')
  })
})

describe('the mailbox', () => {
  it('on port 143’s kind of link signs in only after STARTTLS, and reads as on 993', async () => {
    const { server, cookie } = await site(tempDatabasePath(), { INBOUND_IMAP_URL: stack.imapStarttlsUrl })
    const id = await postLead(server, 'lou@remote.test')
    await reply(server, cookie, id, 'We have cider.')
    await answer('Lou <lou@remote.test>', await farmMailTo('lou@remote.test', /^Re: /), 'A flagon, please.')
    await expect
      .poll(async () => (await thread(server, cookie, id)).some((each) => each.text === 'A flagon, please.'), {
        timeout: 10_000,
      })
      .toBe(true)
  })

  it('moves what it handled to the folder set, and leaves the rest of the inbox as it was', async () => {
    const { server, cookie } = await site(tempDatabasePath(), { INBOUND_MOVE_TO: 'Farm site' })
    await stack.append(
      'From: Neighbour <ned@remote.test>\r\nTo: farm@farm.test\r\nSubject: Hedge\r\n\r\nThe hedge.\r\n',
    )
    const before = (await stack.messages()).filter((message) => message.subject === 'Hedge')
    const id = await postLead(server, 'fay@remote.test')
    await reply(server, cookie, id, 'We have plums.')
    const replyId = await farmMailTo('fay@remote.test', /^Re: /)
    await answer('Fay <fay@remote.test>', replyId, 'A basket of plums, please.', { subject: 'Plums please' })
    await expect
      .poll(async () => (await stack.messages('Farm site')).map((message) => message.subject), { timeout: 10_000 })
      .toEqual(['Plums please'])
    const inbox = await stack.messages()
    expect(inbox.some((message) => message.subject === 'Plums please')).toBe(false)
    expect(inbox.filter((message) => message.subject === 'Hedge')).toEqual(before)
  })

  it('with a wrong password says failing in /healthz, why on the owner’s page, and tries again, never saying the password', async () => {
    const wrong = stack.imapUrl.replace('farm-mailbox-password', 'not-the-Secret-9')
    const server = await serve({
      env: { OWNER_PASSWORD: password, INBOUND_IMAP_URL: wrong, NODE_EXTRA_CA_CERTS: stack.certificate },
    })
    // /healthz is anyone's: it says how the link is, never the server's words.
    await expect
      .poll(async () => ((await (await fetch(`${server.url}/healthz`)).json()) as { mailbox: unknown }).mailbox, {
        timeout: 15_000,
      })
      .toEqual({ state: 'failing', idle: null })
    const cookie = await signInAsOwner(server.url, password)
    // Polled: between two tries the page may meet the link while it is trying again.
    const settingsPage = async () =>
      (await fetch(`${server.url}/farm-sales/settings`, { headers: { Cookie: cookie } })).text()
    await expect
      .poll(settingsPage, { timeout: 15_000 })
      .toContain(
        'Cannot read the farm’s mailbox: The server refused the user name or password: check both; many providers need an app password made for the site. Trying again at',
      )
    expect(await settingsPage()).not.toContain('not-the-Secret-9')
    expect(server.output()).toContain('could not read the farm’s mailbox; trying again later')
    expect(server.output()).not.toContain('not-the-Secret-9')
  })
})

describe('the mailbox set from the settings page', () => {
  it('is tested before it is saved (each half’s words, the reading account apart from the one the environment sends with), then read without a restart', async () => {
    const { port } = new URL(stack.imapUrl.replace(/^imaps/, 'https'))
    const server = await serve({
      env: {
        OWNER_PASSWORD: password,
        SMTP_URL: stack.smtpUrl,
        NOTIFY_EMAIL: stack.farmAddress,
        NODE_EXTRA_CA_CERTS: stack.certificate,
      },
    })
    const cookie = await signInAsOwner(server.url, password)
    const mailbox = {
      IMAP_HOST: 'localhost',
      IMAP_PORT: port,
      IMAP_SECURITY: 'tls',
      IMAP_USER: stack.farmAddress,
      IMAP_FOLDER: 'INBOX',
    }
    const page = (fields: Record<string, string>) =>
      fetch(`${server.url}/farm-sales/settings`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
        body: new URLSearchParams({ section: 'mail', ...fields }).toString(),
      })
    const wrong = await page({ intent: 'test-mail', ...mailbox, IMAP_PASSWORD: 'not-it-Secret-77' })
    expect(wrong.status).toBe(400)
    const refusedHtml = (await wrong.text()).replace(/<!-- -->/g, '')
    // The environment sends (SMTP_URL): that half works; the reading half's refusal is said in words.
    expect(refusedHtml).toContain(`Sent a test mail to ${stack.farmAddress}. The mail server took it.`)
    expect(refusedHtml).toContain(
      'Reading: </strong>The server refused the user name or password: check both; many providers need an app password made for the site.',
    )
    expect(refusedHtml).toMatch(
      /id="setting-IMAP_PASSWORD"[^>]*aria-invalid="true"[^>]*aria-describedby="mail-test-reading"/,
    )
    expect(refusedHtml).not.toContain('not-it-Secret-77')
    expect(await mailboxState(server)).toBe('off')
    const right = await page({ intent: 'test-mail', ...mailbox, IMAP_PASSWORD: 'farm-mailbox-password' })
    expect(right.status).toBe(200)
    expect(await right.text()).toContain('Signed in to localhost and opened INBOX. Nothing in it was read or changed.')
    const saved = await page({ intent: 'save', ...mailbox, IMAP_PASSWORD: 'farm-mailbox-password' })
    expect(saved.status).toBe(303)
    await watching(server)
    const id = await postLead(server, 'kit@remote.test')
    await reply(server, cookie, id, 'Pears on Sunday.')
    await answer('Kit <kit@remote.test>', await farmMailTo('kit@remote.test', /^Re: /), 'Six pears, please.')
    await expect
      .poll(async () => (await thread(server, cookie, id)).some((each) => each.text === 'Six pears, please.'), {
        timeout: 10_000,
      })
      .toBe(true)
    const shown = (await (await fetch(`${server.url}/api/settings`, { headers: { Cookie: cookie } })).json()) as {
      settings: Array<{ key: string; value: string | null; set: boolean }>
    }
    expect(JSON.stringify(shown)).not.toContain('farm-mailbox-password')
    expect(server.output()).not.toContain('farm-mailbox-password')
  })
})

describe('a mail host without IDLE', () => {
  let plain: MailStack
  beforeAll(async () => {
    plain = await startMailStack({ idle: false })
  })
  afterAll(async () => {
    await plain?.stop()
  })

  it('is looked at every few seconds instead, and the answer still joins its card', async () => {
    const port = await freePort()
    const server = await serve({
      port,
      env: {
        OWNER_PASSWORD: password,
        SMTP_URL: plain.smtpUrl,
        NOTIFY_EMAIL: plain.farmAddress,
        INBOUND_IMAP_URL: plain.imapUrl,
        NODE_EXTRA_CA_CERTS: plain.certificate,
      },
    })
    await expect
      .poll(async () => ((await (await fetch(`${server.url}/healthz`)).json()) as { mailbox: unknown }).mailbox, {
        timeout: 15_000,
      })
      .toMatchObject({ state: 'watching', idle: false })
    const cookie = await signInAsOwner(server.url, password)
    const id = await postLead(server, 'gil@remote.test')
    await reply(server, cookie, id, 'Yes, we have logs.')
    await expect.poll(() => plain.remote.mails.length, { timeout: 15_000 }).toBeGreaterThan(0)
    const sent = plain.remote.mails.find((mail) => /^Re: /.test(mail.subject ?? ''))!
    await plain.send({
      from: 'gil@remote.test',
      to: plain.farmAddress,
      subject: 'Re: logs',
      inReplyTo: sent.messageId,
      text: 'A load of logs, then.',
    })
    await expect
      .poll(async () => (await thread(server, cookie, id)).some((each) => each.kind === 'answer'), { timeout: 20_000 })
      .toBe(true)
  })
})
