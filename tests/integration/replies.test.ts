// The owner answers a lead from its card: the reply goes out through a real SMTP server on
// loopback, threaded on the acknowledgement and the earlier replies, its delivery told live,
// retried across a SIGKILL, failed with the server's own words; and the acknowledgement goes to
// clean leads only, once a day, with nothing the visitor typed.
import Sqlite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import type { Reply, Submission, TagCount } from '#app/leads/lead'
import { connectLive } from '#tests/support/live-client'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { freePort, tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import { readRows } from '#tests/support/database'

const owner = 'owner@bramble.example'
const mailServers: MailServer[] = []

afterEach(async () => {
  for (const mail of mailServers.splice(0)) await mail.close()
})
// Registered after the mail servers' hook, so it runs before it: the sites stop first.
const serve = serverPerTest('SIGKILL')

async function site(env: Record<string, string>, databasePath?: string) {
  const server = await serve({
    env: {
      OWNER_PASSWORD: password,
      NOTIFY_EMAIL: `${owner}, partner@bramble.example`,
      NOTIFY_FROM: 'hello@bramble.example',
      FARM_NAME: 'Bramble Hill Farm',
      // Only the visitor's mails are looked at here: the owner's lead mails go out in digests.
      ...env,
    },
    databasePath,
  })
  return { server, cookie: await signInAsOwner(server.url, password) }
}
async function mailServer(options: Parameters<typeof startMailServer>[0] = {}) {
  const mail = await startMailServer(options)
  mailServers.push(mail)
  return mail
}

const visitor = { name: 'Ann Baker', email: 'ann.baker@example.com', message: 'Could I order two dozen eggs?' }

async function postLead(server: RunningServer, fields: Partial<typeof visitor> & Record<string, unknown> = {}) {
  const response = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...visitor, ...fields }),
  })
  return { status: response.status, id: ((await response.json()) as { data?: { id: number } }).data?.id ?? 0 }
}

async function reply(server: RunningServer, cookie: string, id: number, text: string) {
  const response = await fetch(`${server.url}/api/submissions/${id}/replies`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify({ text }),
  })
  return {
    status: response.status,
    body: (await response.json()) as { data: Reply; submission: Submission; counts: TagCount[] },
  }
}

async function history(server: RunningServer, cookie: string, id: number) {
  const response = await fetch(`${server.url}/api/submissions/${id}/replies`, { headers: { Cookie: cookie } })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: Reply[] }).data
}

const toVisitor = (mail: MailServer) =>
  mail.mails.filter((sent) => sent.to && !Array.isArray(sent.to) && sent.to.value[0]?.address === visitor.email)

function storedReplies(databasePath: string) {
  const sqlite = new Sqlite(databasePath, { readonly: true })
  try {
    return sqlite
      .prepare(
        'SELECT r.kind, d.state AS status, r.message_id AS messageId FROM replies r JOIN deliveries d ON d.reply_id = r.id ORDER BY r.id',
      )
      .all() as Array<{
      kind: string
      status: string
      messageId: string
    }>
  } finally {
    sqlite.close()
  }
}

describe('replying to a lead', () => {
  it('mails the reply from NOTIFY_FROM to the visitor, Reply-To the owner, threaded on the acknowledgement and each earlier reply', async () => {
    const mail = await mailServer()
    const { server, cookie } = await site({ SMTP_URL: mail.url, VISITOR_ACK: 'true' })
    const { id } = await postLead(server)
    await expect.poll(() => toVisitor(mail).length, { timeout: 10_000 }).toBe(1)
    const [acknowledgement] = toVisitor(mail)
    expect(acknowledgement!.subject).toBe('We got your message — Bramble Hill Farm')

    const first = await reply(server, cookie, id, 'Hello Ann,\n\nYes: two dozen are yours on Saturday.')
    expect(first.status).toBe(201)
    // Written by the owner, the team's first person; the acknowledgement by no one.
    expect(readRows(server.databasePath, 'SELECT kind, sent_by FROM replies ORDER BY id')).toEqual([
      { kind: 'acknowledgement', sent_by: null },
      { kind: 'reply', sent_by: 1 },
    ])
    const reopened = await fetch(`${server.url}/api/submissions/${id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ status: 'new' }),
    })
    expect(reopened.status).toBe(200)
    expect(readRows(server.databasePath, 'SELECT status, status_changed_by FROM submissions')).toEqual([
      { status: 'new', status_changed_by: 1 },
    ])
    expect(first.body.data).toMatchObject({ kind: 'reply', state: 'queued', text: expect.stringContaining('Saturday') })
    // Replying marks the lead handled, and the answer carries the lead with its thread.
    expect(first.body.submission).toMatchObject({ id, status: 'handled', replyCount: 2 })
    await expect.poll(() => toVisitor(mail).length, { timeout: 10_000 }).toBe(2)
    const second = await reply(server, cookie, id, 'P.S. Bring a box if you have one.')
    expect(second.status).toBe(201)
    await expect.poll(() => toVisitor(mail).length, { timeout: 10_000 }).toBe(3)

    const [, firstMail, secondMail] = toVisitor(mail)
    for (const sent of [firstMail!, secondMail!]) {
      expect(sent.from?.value).toEqual([{ address: 'hello@bramble.example', name: 'Bramble Hill Farm' }])
      expect(sent.to).toMatchObject({ value: [{ address: visitor.email }] })
      expect(sent.replyTo?.value).toEqual([{ address: owner, name: '' }])
      expect(sent.subject).toBe('Re: Your message to Bramble Hill Farm')
      // The visitor's own message, quoted with its date, under the owner's words.
      expect(sent.text).toMatch(/On \d{1,2} \w+ \d{4} at \d\d:\d\d UTC, you wrote:\n> Could I order two dozen eggs\?/)
    }
    expect(firstMail!.text).toMatch(/^Hello Ann,\n\nYes: two dozen are yours on Saturday\./)

    // Each mail's Message-ID is the one stored, and each threads on every earlier one. The last is
    // marked sent once the site has heard the mail server's 250, a moment after the mail arrived.
    await expect
      .poll(() => storedReplies(server.databasePath).map(({ kind, status }) => [kind, status]))
      .toEqual([
        ['acknowledgement', 'sent'],
        ['reply', 'sent'],
        ['reply', 'sent'],
      ])
    const stored = storedReplies(server.databasePath)
    expect([acknowledgement!.messageId, firstMail!.messageId, secondMail!.messageId]).toEqual(
      stored.map(({ messageId }) => messageId),
    )
    expect(acknowledgement!.inReplyTo).toBeUndefined()
    expect(firstMail!.inReplyTo).toBe(acknowledgement!.messageId)
    expect(firstMail!.references).toBe(acknowledgement!.messageId)
    expect(secondMail!.inReplyTo).toBe(firstMail!.messageId)
    expect(secondMail!.references).toEqual([acknowledgement!.messageId, firstMail!.messageId])

    // The history gives every mail, oldest first, as sent.
    const thread = await history(server, cookie, id)
    expect(thread.map(({ kind, state }) => [kind, state])).toEqual([
      ['acknowledgement', 'sent'],
      ['reply', 'sent'],
      ['reply', 'sent'],
    ])
    expect(thread[1]!.sentAt).toEqual(expect.any(String))
  })

  it('speaks to a visitor who wrote in French in French: the acknowledgement, the reply’s frame, each said in Content-Language', async () => {
    const mail = await mailServer()
    const { server, cookie } = await site({
      SMTP_URL: mail.url,
      VISITOR_ACK: 'true',
      FARM_LANGUAGES: 'fr,en',
      FARM_TIME_ZONE: 'Europe/Paris',
    })
    const { id } = await postLead(server, { language: 'fr', message: 'Auriez-vous deux douzaines d’œufs ?' })
    await expect.poll(() => toVisitor(mail).length, { timeout: 10_000 }).toBe(1)
    const [acknowledgement] = toVisitor(mail)
    expect(acknowledgement!.subject).toBe('Nous avons bien reçu votre message — Bramble Hill Farm')
    expect(acknowledgement!.headers.get('content-language')).toBe('fr')
    expect(acknowledgement!.text).toMatch(
      /^Merci d’avoir écrit à Bramble Hill Farm\. Nous avons bien reçu votre message et nous vous répondrons dès que possible\.\n\nBramble Hill Farm\n\n-- \nVous recevez ce message parce que cette adresse a été indiquée dans notre formulaire de contact\./,
    )

    expect((await reply(server, cookie, id, 'Bonjour Ann,\n\nOui, samedi.')).status).toBe(201)
    await expect.poll(() => toVisitor(mail).length, { timeout: 10_000 }).toBe(2)
    const answered = toVisitor(mail)[1]!
    expect(answered.subject).toBe('Re: Votre message à Bramble Hill Farm')
    expect(answered.headers.get('content-language')).toBe('fr')
    expect(answered.text).toMatch(
      /^Bonjour Ann,\n\nOui, samedi\.\n\nLe \d{1,2} \S+ \d{4} à \d\d:\d\d heure d’Europe centrale, vous avez écrit :\n> Auriez-vous deux douzaines d’œufs \?/,
    )

    // Written in English (the API's own language when none is named): in English, and said so.
    await postLead(server, { email: 'bob@example.com' })
    const toBob = () =>
      mail.mails.find((sent) => !Array.isArray(sent.to) && sent.to?.value[0]?.address === 'bob@example.com')
    await expect.poll(toBob, { timeout: 10_000 }).toBeDefined()
    const english = toBob()
    expect(english!.subject).toBe('We got your message — Bramble Hill Farm')
    expect(english!.headers.get('content-language')).toBe('en')

    // Written in German through the API, which names no language: in the language it was written in.
    await postLead(server, {
      email: 'kai@example.de',
      message: 'Hallo, haben Sie noch Eier? Ich komme gern am Samstag vorbei.',
    })
    const toKai = () =>
      mail.mails.find((sent) => !Array.isArray(sent.to) && sent.to?.value[0]?.address === 'kai@example.de')
    await expect.poll(toKai, { timeout: 10_000 }).toBeDefined()
    expect(toKai()!.subject).toBe('Ihre Nachricht ist angekommen — Bramble Hill Farm')
    expect(toKai()!.headers.get('content-language')).toBe('de')
  })

  it('tells every watcher the reply as queued, then as sent', async () => {
    const mail = await mailServer()
    const { server, cookie } = await site({ SMTP_URL: mail.url })
    const { id } = await postLead(server)
    const watcher = await connectLive(server.wsUrl, { Cookie: cookie })
    try {
      expect((await reply(server, cookie, id, 'Yes, we have eggs.')).status).toBe(201)
      const states: string[] = []
      while (!states.includes('sent')) {
        const message = await watcher.next(10_000)
        expect(message).toMatchObject({ type: 'SUBMISSION_UPDATED', data: { id } })
        const replies = message.data.replies as Array<{ state: string }>
        states.push(replies.at(-1)!.state)
      }
      expect(states[0]).toBe('queued')
      expect(states.at(-1)).toBe('sent')
    } finally {
      watcher.close()
    }
  })

  it('keeps a reply made while the mail server is down as retrying, across a SIGKILL and a restart, and mails it exactly once', async () => {
    const port = await freePort()
    // Retries start after 1 s instead of 30, so the test sees the retry that reaches the server.
    const env = { SMTP_URL: `smtp://127.0.0.1:${port}`, NOTIFY_RETRY_SECONDS: '1' }
    const databasePath = tempDatabasePath()
    const { server: first, cookie } = await site(env, databasePath)
    const { id } = await postLead(first)
    expect((await reply(first, cookie, id, 'Your eggs are ready.')).status).toBe(201)
    await expect.poll(async () => (await history(first, cookie, id))[0]!.state, { timeout: 10_000 }).toBe('retrying')
    const retrying = (await history(first, cookie, id))[0]!
    expect(retrying.retryAt).toEqual(expect.any(String))
    expect(retrying.failure).toMatch(/ECONNREFUSED|connect/i)
    first.child.kill('SIGKILL')
    await first.exited

    const { server: second, cookie: again } = await site(env, databasePath)
    const mail = await mailServer({ port })
    await expect.poll(() => toVisitor(mail).length, { timeout: 20_000 }).toBe(1)
    await expect.poll(async () => (await history(second, again, id))[0]!.state, { timeout: 10_000 }).toBe('sent')
    expect(toVisitor(mail)[0]!.text).toContain('Your eggs are ready.')

    // Accepted once and marked: a restart sends nothing again. The control: a new reply goes out,
    // after the start's round, which would have sent the first again had it still been owed.
    expect(await second.stop()).toBe(0)
    const { server: third, cookie: signedIn } = await site(env, databasePath)
    expect((await reply(third, signedIn, id, 'And the honey too.')).status).toBe(201)
    await expect.poll(() => toVisitor(mail).length, { timeout: 10_000 }).toBe(2)
    expect(toVisitor(mail).map((sent) => sent.text?.split('\n')[0])).toEqual([
      'Your eggs are ready.',
      'And the honey too.',
    ])
  })

  it('shows a refused reply as failed with the mail server’s words, counts it in the header until dismissed, and sends it when tried again', async () => {
    let refusing = true
    const mail = await mailServer({ refuseRecipient: (address) => refusing && address === visitor.email })
    const { server, cookie } = await site({ SMTP_URL: mail.url })
    const { id } = await postLead(server)
    const sent = await reply(server, cookie, id, 'Eggs on Saturday.')
    const replyId = sent.body.data.id
    await expect.poll(async () => (await history(server, cookie, id))[0]!.state, { timeout: 10_000 }).toBe('failed')
    const failed = (await history(server, cookie, id))[0]!
    expect(failed.failure).toMatch(
      /^550 5\.1\.1 <ann\.baker@example\.com>: Recipient address rejected: no such mailbox/,
    )

    // The page as rendered, without React's text separators.
    const page = async () =>
      (
        await fetch(`${server.url}/farm-sales`, { headers: { Cookie: cookie } }).then((answer) => answer.text())
      ).replaceAll('<!-- -->', '')
    expect(await page()).toContain('>1 failed</span>')
    expect(await page()).toContain('Farm Sales, 1 reply not delivered')
    expect(await page()).toContain('The mail server said: 550 5.1.1')

    const retry = await fetch(`${server.url}/api/submissions/${id}/replies/${replyId}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ action: 'retry' }),
    })
    expect(retry.status).toBe(200)
    // Tried again at once, and refused again: failed, and counted again.
    await expect.poll(async () => (await history(server, cookie, id))[0]!.state, { timeout: 10_000 }).toBe('failed')
    expect(await page()).toContain('>1 failed</span>')
    const dismiss = await fetch(`${server.url}/api/submissions/${id}/replies/${replyId}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ action: 'dismiss' }),
    })
    expect(dismiss.status).toBe(200)
    expect(((await dismiss.json()) as { counts: Array<Record<string, unknown>> }).counts).toContainEqual(
      expect.objectContaining({ kind: 'delivery', value: 'failed', count: 0 }),
    )
    expect(await page()).not.toContain('>1 failed</span>')
    expect(await page()).toContain('Failed (dismissed)')
    // Dismissed mails are not tried again by a dismiss; trying again still can send it.
    refusing = false
    const again = await fetch(`${server.url}/api/submissions/${id}/replies/${replyId}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ action: 'retry' }),
    })
    expect(again.status).toBe(200)
    await expect.poll(() => toVisitor(mail).length, { timeout: 10_000 }).toBe(1)
    await expect.poll(async () => (await history(server, cookie, id))[0]!.state, { timeout: 10_000 }).toBe('sent')
  })
})

describe('the acknowledgement', () => {
  it('goes to a clean lead once per address in 24 hours, and never to what a trap or the analysis set aside', async () => {
    const mail = await mailServer()
    const { server } = await site({ SMTP_URL: mail.url, VISITOR_ACK: 'true', MIN_FILL_SECONDS: '3' })
    const home = await (await fetch(server.url)).text()
    const formToken = /name="formToken" value="([^"]+)"/.exec(home)?.[1]
    expect(formToken).toBeTruthy()
    const trapped = [
      { email: 'fast@example.com', formToken },
      { email: 'honey@example.com', website: 'https://spam.example' },
      {
        email: 'wave@example.com',
        message: 'BUY CHEAP FOLLOWERS NOW!!! http://a.example http://b.example http://c.example CLICK HERE FREE MONEY',
      },
    ]
    for (const fields of trapped) expect((await postLead(server, fields)).status).toBe(202)
    expect((await postLead(server)).status).toBe(201)
    // The same mailbox again, in other letters' case or with a +tag: no second acknowledgement that day.
    expect((await postLead(server, { email: 'Ann.Baker@Example.com', message: 'And honey?' })).status).toBe(201)
    expect((await postLead(server, { email: 'ann.baker+eggs@example.com', message: 'And jam?' })).status).toBe(201)
    expect((await postLead(server, { email: 'cy@example.com', message: 'Apples?' })).status).toBe(201)
    await expect
      .poll(() => mail.mails.filter((sent) => sent.subject?.startsWith('We got')).length, { timeout: 10_000 })
      .toBe(2)
    // A mail to a visitor goes out only from a stored one: two are stored, both sent, so no third can come.
    await expect
      .poll(() => storedReplies(server.databasePath).map(({ kind, status }) => `${kind} ${status}`))
      .toEqual(['acknowledgement sent', 'acknowledgement sent'])
    const acknowledged = mail.mails
      .filter((sent) => sent.subject?.startsWith('We got'))
      .map((sent) => (Array.isArray(sent.to) ? '' : sent.to!.value[0]!.address))
    expect(acknowledged.sort()).toEqual(['ann.baker@example.com', 'cy@example.com'])
  })

  it('says nothing the visitor typed, not their name nor their message, and adds no header they wrote', async () => {
    const mail = await mailServer()
    const { server } = await site({ SMTP_URL: mail.url, VISITOR_ACK: 'true' })
    const name = 'Visit cheap-pills.example now'
    const message = 'Win a prize at cheap-pills.example today, click now please'
    expect((await postLead(server, { name, message, email: 'target@example.com' })).status).toBe(201)
    await expect
      .poll(() => mail.mails.filter((sent) => sent.subject?.startsWith('We got')).length, { timeout: 10_000 })
      .toBe(1)
    const sent = mail.mails.find((each) => each.subject?.startsWith('We got'))!
    // The Message-ID ends in random characters, which could spell 'Win' by chance: it is checked by its shape.
    expect(sent.messageId).toMatch(/^<[a-z0-9]+\.[\w-]{16}@bramble\.example>$/)
    const headers = [...sent.headers].filter(([key]) => key !== 'message-id').map(([, value]) => String(value))
    const everything = [sent.subject, sent.text, sent.html || '', ...headers].join('\n')
    for (const typed of ['cheap-pills', 'Visit', 'prize', 'Win']) expect(everything).not.toContain(typed)
    expect(sent.text).toContain('Thank you for writing to Bramble Hill Farm.')
    expect(sent.text).toContain('If that was not you, please ignore it.')
  })

  it('goes out at most three times an hour for one sender, whatever addresses they type', async () => {
    const mail = await mailServer()
    const { server } = await site({ SMTP_URL: mail.url, VISITOR_ACK: 'true' })
    for (const [n, email] of [
      'a@example.com',
      'b@example.com',
      'c@example.com',
      'd@example.com',
      'e@example.com',
    ].entries()) {
      expect((await postLead(server, { email, message: `Eggs for ${n}?` })).status).toBe(201)
    }
    const acknowledgements = () => mail.mails.filter((sent) => sent.subject?.startsWith('We got')).length
    await expect.poll(acknowledgements, { timeout: 10_000 }).toBe(3)
    // Only three were ever stored to be sent, so no fourth can follow.
    expect(storedReplies(server.databasePath)).toHaveLength(3)
    // Every lead is still kept, listed and mailed to the owner.
    expect(mail.mails.filter((sent) => sent.subject?.includes('lead'))).not.toHaveLength(0)
  })

  it('is not sent, and the log says why, when VISITOR_ACK is on but no mail server is set', async () => {
    const { server } = await site({ VISITOR_ACK: 'true' })
    expect((await postLead(server)).status).toBe(201)
    expect(server.output()).toContain(
      'VISITOR_ACK is on but mail is not set up (SMTP_URL and NOTIFY_EMAIL, or the settings page)',
    )
    expect(storedReplies(server.databasePath)).toHaveLength(0)
  })

  it('is not sent when VISITOR_ACK is left off, the default', async () => {
    const mail = await mailServer()
    const { server } = await site({ SMTP_URL: mail.url })
    expect((await postLead(server)).status).toBe(201)
    await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBe(1)
    expect(mail.mails[0]!.subject).toContain('New lead from Ann Baker')
    // Nothing was stored to be sent to the visitor, so nothing can go: no wait needed to know it.
    expect(storedReplies(server.databasePath)).toHaveLength(0)
    expect(toVisitor(mail)).toHaveLength(0)
  })
})
