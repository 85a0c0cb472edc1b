// A mail server's refusal names the recipient, as Postfix does (`550 5.1.1 <ann@…>: Recipient
// address rejected`). Those words were logged as they came, and log lines outlive a forget. Every
// text from outside is logged without the addresses in it; the card keeps the words for the owner.
import { afterEach, expect, it } from 'vitest'
import { withoutAddresses } from '#server/log'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

let server: RunningServer | undefined
let mail: MailServer | undefined
afterEach(async () => {
  await mail?.close()
})
// Registered after the mail server's hook, so it runs before it: the site stops first.
const serve = serverPerTest('SIGKILL')

const post = (email: string) =>
  fetch(`${server!.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `203.0.113.${email.length}` },
    body: JSON.stringify({ name: 'A visitor', email, message: 'Do you have any honey left this week?' }),
  })

it('logs a refused and a deferred mail to a visitor with the server’s words and without the address', async () => {
  const refused = 'ann.refused@example.com'
  const deferred = 'bo.deferred@example.com'
  mail = await startMailServer({
    refuseRecipient: (address) => address === refused,
    deferRecipient: (address) => address === deferred,
  })
  server = await serve({
    env: {
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: 'owner@farm.example',
      VISITOR_ACK: 'true',
      TRUST_PROXY: 'loopback',
    },
  })
  expect((await post(refused)).status).toBe(201)
  expect((await post(deferred)).status).toBe(201)
  await expect
    .poll(() => server!.output(), { timeout: 15_000 })
    .toContain('the mail server refused a mail to a visitor')
  await expect
    .poll(() => server!.output(), { timeout: 15_000 })
    .toContain('could not mail a visitor; trying again later')
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.includes('mail to a visitor') || line.includes('could not mail a visitor'))
  expect(lines.join('\n')).toContain('550 5.1.1 <(an address)>: Recipient address rejected')
  expect(lines.join('\n')).toContain('450 4.2.2 <(an address)>: Recipient address rejected: mailbox full')
  for (const address of [refused, deferred, 'ann.refused', 'bo.deferred'])
    expect(server.output()).not.toContain(address)
})

it('takes every spelling of an address out of a text', () => {
  for (const [text, said] of [
    ['550 5.1.1 <ann@example.com>: Recipient address rejected', '550 5.1.1 <(an address)>: Recipient address rejected'],
    ['Mailbox "Ann.Baker+eggs@Mail.Example.co.uk" is full', 'Mailbox "(an address)" is full'],
    ['to=ann@bücher.example, relay=none', '(an address), relay=none'],
    ["<o'neil=eggs@farm.example> unknown", '<(an address)> unknown'],
    ['user (x@[127.0.0.1]) unknown', 'user ((an address)) unknown'],
    ['no address here: 421 4.7.0 try later', 'no address here: 421 4.7.0 try later'],
  ]) {
    expect(withoutAddresses(text!)).toBe(said)
  }
})
