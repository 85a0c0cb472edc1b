import { expect } from 'vitest'
import { readRows } from './database'
import { startMailServer, type MailServer } from './mail-server'
import { ownerPassword as password, signInAsOwner } from './owner'
import { freePort, type RunningServer } from './server'
import type { StartServer } from './server-per-test'

export type SentMail = MailServer['mails'][number]

export const owner = 'owner@bramble.example'

let visitor = 0
/** A lead from a visitor's own address (the acknowledgements are capped per sender). */
export async function postLead(server: RunningServer, name: string, email: string) {
  const response = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `203.0.113.${++visitor % 250}` },
    body: JSON.stringify({ name, email, message: 'Could I order two dozen eggs for Saturday?' }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: number } }).data.id
}

const ownerPost = (server: RunningServer, cookie: string, path: string, fields: Record<string, string>) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })

/** Which mail is which kind the site sends. */
export const kinds: Record<string, (sent: SentMail) => boolean> = {
  'a lead': (sent) => sent.subject === '[Urgent] New lead from Ann Baker',
  'a digest': (sent) => /^(\[Urgent\] )?2 new leads$/.test(sent.subject ?? ''),
  'an acknowledgement': (sent) =>
    sent.subject === 'We got your message — Bramble Hill Farm' && !/updates\/confirm/.test(sent.text ?? ''),
  'an acknowledgement with the ask': (sent) =>
    sent.subject === 'We got your message — Bramble Hill Farm' && /updates\/confirm/.test(sent.text ?? ''),
  'a reply': (sent) => sent.subject === 'Re: Your message to Bramble Hill Farm',
  'an update': (sent) => sent.subject === 'Duck eggs are back',
  'a one-line update': (sent) => sent.subject === 'Eggs',
  'the owner’s test update': (sent) => sent.subject === '[Test] Eggs this week',
  'the settings’ test mail': (sent) => sent.subject === 'A test mail from Bramble Hill Farm',
}

/**
 * A site on the shipped defaults but for the owner's password, its mail set up on the settings
 * page, made to send one mail of every kind through a real SMTP server on loopback: the mails of
 * three leads wait for a mail server that is not there, then go in one round once the port is
 * right (a lead's mail and a digest of two); updates are turned on, a fourth lead is asked.
 */
export async function everyKindOfMail(start: StartServer, mailServers: MailServer[]) {
  const mail = await startMailServer()
  mailServers.push(mail)
  const port = await freePort()
  const server = await start({
    port,
    env: {
      OWNER_PASSWORD: password,
      FARM_NAME: 'Bramble Hill Farm',
      PUBLIC_URL: `http://localhost:${port}`,
      TRUST_PROXY: 'loopback',
    },
  })
  const cookie = await signInAsOwner(server.url, password)
  const patch = async (body: Record<string, string>) => {
    const answer = await fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify(body),
    })
    expect(answer.status).toBe(200)
  }
  await patch({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(await freePort()),
    SMTP_SECURITY: 'offered',
    NOTIFY_EMAIL: owner,
    NOTIFY_FROM: 'Bramble Hill Farm <hello@bramble.example>',
    NOTIFY_DIGEST_AFTER: '1',
    VISITOR_ACK: 'true',
  })
  const ann = await postLead(server, 'Ann Baker', 'ann@example.com')
  await postLead(server, 'Bob Stone', 'bob@example.com')
  await postLead(server, 'Cara Diaz', 'cara@example.com')
  // The mail server could not be reached: the owner's mail waits for it (paused), all three leads owed.
  await expect
    .poll(() => readRows(server.databasePath, "SELECT receiver FROM receiver_pauses WHERE receiver = 'owner-mail'"), {
      timeout: 10_000,
    })
    .toHaveLength(1)
  expect(
    readRows(
      server.databasePath,
      "SELECT id FROM deliveries WHERE kind = 'owner-mail' AND state IN ('queued', 'retrying')",
    ),
  ).toHaveLength(3)
  await patch({ SMTP_PORT: String(mail.port) })
  await patch({ UPDATES: 'true' })
  await postLead(server, 'Dot Pruitt', 'dot@example.com')

  const replied = await fetch(`${server.url}/api/submissions/${ann}/replies`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify({ text: 'Yes, Ann: two dozen on Saturday.\n\nWe open the farm shop at nine.' }),
  })
  expect(replied.status).toBe(201)
  const added = await ownerPost(server, cookie, '/farm-sales/updates', {
    intent: 'add',
    email: 'ann@example.com',
    name: 'Ann Baker',
    note: 'Asked at the market stall',
  })
  expect(added.status).toBeLessThan(400)
  for (const update of [
    {
      subject: 'Duck eggs are back',
      text: 'Hello {name},\n\nThe ducks are laying again, and we keep a tray for you until Saturday.\n\nSee you at the farm shop,\n{farm}',
    },
    { subject: 'Eggs', text: 'Eggs are back on Saturday.' },
  ]) {
    const sent = await fetch(`${server.url}/api/updates`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify(update),
    })
    expect(sent.status).toBe(202)
  }
  const tested = await ownerPost(server, cookie, '/farm-sales/updates', {
    intent: 'test',
    subject: 'Eggs this week',
    text: 'Hello {name}, the hens are laying well.',
  })
  expect(tested.status).toBe(200)
  expect(
    (await ownerPost(server, cookie, '/farm-sales/settings', { section: 'mail', intent: 'test-mail' })).status,
  ).toBe(200)

  const found: Record<string, SentMail> = {}
  for (const [kind, is] of Object.entries(kinds)) {
    await expect.poll(() => mail.mails.some(is), { timeout: 15_000, message: kind }).toBe(true)
    found[kind] = mail.mails.find(is)!
  }
  return { server, mail, cookie, mails: found }
}
