import Sqlite from 'better-sqlite3'
import { expect } from 'vitest'
import type { Reply } from '#app/leads/lead'
import type { MailStack } from './mail-stack'
import { ownerPassword, signInAsOwner } from './owner'
import { freePort, mailboxState, tempDatabasePath, type RunningServer } from './server'
import { serverPerTest } from './server-per-test'

/** Waits until the site reads its mailbox (/healthz says `watching`). */
export async function watching(server: RunningServer) {
  await expect.poll(() => mailboxState(server), { timeout: 15_000 }).toBe('watching')
}

/**
 * The compiled site with its mail through a real mail stack (tests/support/mail-stack.ts): it
 * sends through Postfix and reads the farm's mailbox from Dovecot, updates on. Each site started,
 * and each server started with `serve`, is stopped after its test.
 */
export function mailBackSites(stack: () => MailStack) {
  const serve = serverPerTest('SIGKILL')
  let visitors = 0

  /** The Message-ID of the farm's latest mail that reached this address with this subject. */
  async function farmMailTo(address: string, subject: RegExp): Promise<string> {
    const to = () =>
      stack().remote.mails.filter(
        (mail) => !Array.isArray(mail.to) && mail.to?.value[0]?.address === address && subject.test(mail.subject ?? ''),
      )
    await expect.poll(() => to().length, { timeout: 15_000 }).toBeGreaterThan(0)
    return to().at(-1)!.messageId!
  }

  return {
    serve,
    async site(databasePath = tempDatabasePath(), env: Record<string, string> = {}) {
      const port = await freePort()
      const server = await serve({
        port,
        databasePath,
        env: {
          OWNER_PASSWORD: ownerPassword,
          SMTP_URL: stack().smtpUrl,
          NOTIFY_EMAIL: stack().farmAddress,
          FARM_NAME: 'Bramble Hill Farm',
          INBOUND_IMAP_URL: stack().imapUrl,
          NODE_EXTRA_CA_CERTS: stack().certificate,
          UPDATES: 'true',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          ...env,
        },
      })
      await watching(server)
      return { server, cookie: await signInAsOwner(server.url, ownerPassword) }
    },
    async postLead(server: RunningServer, email: string, message = 'Could I order two dozen eggs for Saturday?') {
      const response = await fetch(`${server.url}/api/submissions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `203.0.113.${++visitors}` },
        body: JSON.stringify({ name: 'Ann Baker', email, message }),
      })
      expect(response.status).toBe(201)
      return ((await response.json()) as { data: { id: number } }).data.id
    },
    async reply(server: RunningServer, cookie: string, id: number, text: string) {
      const response = await fetch(`${server.url}/api/submissions/${id}/replies`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        body: JSON.stringify({ text }),
      })
      expect(response.status).toBe(201)
    },
    async thread(server: RunningServer, cookie: string, id: number): Promise<Reply[]> {
      const response = await fetch(`${server.url}/api/submissions/${id}/replies`, { headers: { Cookie: cookie } })
      return ((await response.json()) as { data: Reply[] }).data
    },
    farmMailTo,
    /** Subscribers as the owner adds them (asked at the stall), or in another status. */
    subscribe(databasePath: string, emails: string[], status = 'subscribed') {
      const sqlite = new Sqlite(databasePath)
      const insert = sqlite.prepare(
        `INSERT INTO subscribers (email, address_key, name, status, consent, added_by, subscribed_at, created_at)
         VALUES (?, ?, ?, ?, 'asked at the stall', 'owner', ?, ?)`,
      )
      for (const email of emails) insert.run(email, email, email.split('@')[0], status, Date.now(), Date.now())
      sqlite.close()
    },
    /** Sends an update to every subscriber: the API's answer. */
    async sendUpdate(server: RunningServer, cookie: string, subject: string) {
      const response = await fetch(`${server.url}/api/updates`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        body: JSON.stringify({ subject, text: 'Hello {name}, the first asparagus is in.' }),
      })
      return { status: response.status, id: ((await response.json()) as { id: number }).id }
    },
    /** A visitor's answer to one of the farm's mails, sent through Postfix into the farm's mailbox. */
    answer: (from: string, inReplyTo: string, text: string, extra: Record<string, unknown> = {}) =>
      stack().send({
        from,
        to: stack().farmAddress,
        subject: 'Re: your message to Bramble Hill Farm',
        inReplyTo,
        references: [inReplyTo],
        text,
        ...extra,
      }),
  }
}
