// One lead the mail server will not take does not hold back the others: a refused digest is
// sent again in halves, down to one lead, and only the refused lead is marked failed.
import Sqlite from 'better-sqlite3'
import { afterEach, expect, it } from 'vitest'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

let server: RunningServer | undefined
let mail: MailServer | undefined
afterEach(async () => {
  await mail?.close()
  server = mail = undefined
})
// Registered after the mail server's hook, so it runs before it: the site stops first.
const serve = serverPerTest('SIGKILL')

/** Leads already owed their mail when the server starts, so the first digest holds them all. */
async function owedLeads(names: string[]) {
  const databasePath = tempDatabasePath()
  await (await serve({ databasePath })).stop()
  const sqlite = new Sqlite(databasePath)
  const at = Date.now()
  const insert = sqlite.prepare('INSERT INTO submissions (name, email, message, created_at) VALUES (?, ?, ?, ?)')
  const owe = sqlite.prepare(
    "INSERT INTO deliveries (kind, submission_id, next_attempt_at, created_at) VALUES ('owner-mail', ?, ?, ?)",
  )
  for (const name of names) {
    owe.run(insert.run(name, 'lead@example.com', `A message from ${name}`, at).lastInsertRowid, at, at)
  }
  sqlite.close()
  return databasePath
}

/** Each owed mail as the database has it, with its lead's name, in the leads' order. */
function owed(databasePath: string) {
  const sqlite = new Sqlite(databasePath, { readonly: true })
  try {
    return sqlite
      .prepare(
        "SELECT s.name, o.state AS status, o.attempts FROM deliveries o JOIN submissions s ON s.id = o.submission_id WHERE o.kind = 'owner-mail' ORDER BY s.id",
      )
      .all() as Array<{ name: string; status: string; attempts: number }>
  } finally {
    sqlite.close()
  }
}

it('mails every other lead of a refused digest, in smaller mails, and marks only the refused one failed', async () => {
  const names = ['Ann', 'Bob', 'Cas', 'Poison Pete', 'Dee', 'Eve']
  const databasePath = await owedLeads(names)
  mail = await startMailServer({ refuse: (mail) => (mail.text ?? '').includes('Poison') })
  server = await serve({
    databasePath,
    // Every lead goes into a digest, so the first mail is one digest of all six.
    env: { SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@farm.example', NOTIFY_DIGEST_AFTER: '0' },
  })
  const statuses = () => owed(databasePath).map(({ name, status }) => ({ name, status }))
  await expect
    .poll(() => statuses().filter((row) => !['queued', 'retrying'].includes(row.status)).length, { timeout: 15_000 })
    .toBe(6)
  expect(statuses()).toEqual(names.map((name) => ({ name, status: name === 'Poison Pete' ? 'failed' : 'sent' })))
  const mailed = mail.mails.flatMap((one) => names.filter((name) => (one.text ?? '').includes(`${name} <`)))
  expect(mailed.sort()).toEqual(names.filter((name) => name !== 'Poison Pete').sort())
  expect(server.output()).toContain('the mail server refused the mail about this lead')
})

it('fails no lead when the server refuses every mail (a full mailbox, a DMARC rule): all wait and are tried again', async () => {
  const names = ['Ann', 'Bob', 'Cas', 'Dee']
  const databasePath = await owedLeads(names)
  mail = await startMailServer({ refuse: () => true })
  server = await serve({
    databasePath,
    env: { SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@farm.example', NOTIFY_DIGEST_AFTER: '0' },
  })
  await expect.poll(() => owed(databasePath).every((row) => row.attempts > 0), { timeout: 15_000 }).toBe(true)
  expect(owed(databasePath).map((row) => row.status)).toEqual(['retrying', 'retrying', 'retrying', 'retrying'])
  expect(mail.mails).toEqual([])
  expect(server.output()).not.toContain('the mail server refused the mail about this lead')
})
