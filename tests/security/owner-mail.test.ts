// The owner's mail: the SMTP password never reaches a log line, whether the login works,
// fails or the setting is malformed; and what a visitor typed can never add a header or a
// recipient to the mail.
import { simpleParser } from 'mailparser'
import nodemailer from 'nodemailer'
import { afterEach, describe, expect, it } from 'vitest'
import { leadMail } from '#app/owner-mail/owner-mail.server'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const password = 'Sh33p-and-H0ney!'
let server: RunningServer | undefined
let mail: MailServer | undefined
afterEach(async () => {
  await mail?.close()
  server = undefined
  mail = undefined
})
// Registered after the mail server's hook, so it runs before it: the site stops first.
const serve = serverPerTest('SIGKILL')

async function postLead(name = 'Ann Baker') {
  const response = await fetch(`${server!.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, email: 'ann@example.com', message: 'Any honey left?' }),
  })
  expect(response.status).toBe(201)
}

describe('SMTP credentials', () => {
  it('logs in with them and never prints them, when the login works and when it fails', async () => {
    mail = await startMailServer({ login: { user: 'farm', password } })
    server = await serve({
      env: { SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@farm.example', NOTIFY_RETRY_SECONDS: '1' },
    })
    await postLead()
    await expect.poll(() => mail!.mails.length, { timeout: 10_000 }).toBe(1)
    expect(server.output()).toContain('mailing the owner about each lead')
    expect(server.output()).toContain(`127.0.0.1:${mail.port}`)
    await server.stop('SIGKILL')

    // The same site with a wrong password: the failure is logged, the password is not.
    const wrong = mail.url.replace(encodeURIComponent(password), encodeURIComponent(`${password}x`))
    server = await serve({ env: { SMTP_URL: wrong, NOTIFY_EMAIL: 'owner@farm.example' } })
    await postLead()
    await expect.poll(() => server!.output(), { timeout: 10_000 }).toContain('could not mail the owner')
    for (const secret of [password, encodeURIComponent(password), `${password}x`]) {
      expect(server.output()).not.toContain(secret)
    }
  })

  it('refuses a malformed SMTP_URL at start with a clear error that does not repeat it', async () => {
    for (const value of [`ftp://farm:${password}@mail.example`, `farm:${password}@mail.example:587`]) {
      const failure = await serve({ env: { SMTP_URL: value, NOTIFY_EMAIL: 'owner@farm.example' } }).then(
        () => null,
        (error: Error) => error.message,
      )
      expect(failure).toMatch(/SMTP_URL must/)
      expect(failure).not.toContain(password)
    }
  })
})

describe('headers of the owner’s mail', () => {
  it('keeps a hostile name and address data: no added header, recipient or subject line', async () => {
    const hostile = {
      id: 7,
      name: 'Eve<script>alert(1)</script>\r\nBcc: everyone@evil.example\r\nSubject: Free money',
      email: 'eve@example.com>, victim@evil.example',
      message: 'Hi\r\n.\r\nMAIL FROM:<x@evil.example>',
      analysis: null,
      createdAt: '2026-11-23T09:30:00.000Z',
    }
    const composed = leadMail(hostile, { publicUrl: null, timeZone: 'UTC' })
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'crlf' })
    const { message } = await transport.sendMail({
      from: 'owner@farm.example',
      to: ['owner@farm.example'],
      replyTo: composed.replyTo,
      subject: composed.subject,
      text: composed.text,
      html: composed.html,
    })
    const parsed = await simpleParser(message as Buffer)
    expect(parsed.bcc).toBeUndefined()
    expect(parsed.cc).toBeUndefined()
    expect(parsed.to).toMatchObject({ value: [{ address: 'owner@farm.example' }] })
    expect(parsed.headers.get('subject')).not.toBe('Free money')
    expect(String(parsed.headers.get('subject'))).toContain('New lead from Eve')
    expect(parsed.replyTo?.value.map((address) => address.address)).not.toContain('victim@evil.example')
    expect(parsed.html).toContain('Eve&lt;script&gt;')
    expect(parsed.html).not.toContain('<script')
  })

  it('refuses a name with line breaks at the door, so none is ever stored or mailed', async () => {
    mail = await startMailServer()
    server = await serve({ env: { SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@farm.example' } })
    const response = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Eve\r\nBcc: x@evil.example', email: 'eve@example.com', message: 'Hi' }),
    })
    expect(response.status).toBe(400)
    await postLead('After Eve')
    await expect.poll(() => mail!.mails.length, { timeout: 10_000 }).toBe(1)
    expect(mail.mails[0]!.subject).toBe('New lead from After Eve')
  })
})
