// One client sends many clean messages at once, each to another address, hoping the farm
// acknowledges each (mail to addresses the client chose). Before, the messages whose reading
// missed its deadline were read again later on a path that knew no sender, and 37 of 120 were
// acknowledged; a restart or a deleted lead reset the counts too. The caps (three an hour per
// sender, one a day per mailbox) now count a record kept in the database, on every path.
import Sqlite from 'better-sqlite3'
import { afterEach, expect, it } from 'vitest'
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

// As long as the form allows (5,000 characters), so a crowd of them outlasts the reading's deadline.
const message = 'We would like to order eggs, honey and a box of seasonal vegetables for the weekend. '
  .repeat(60)
  .slice(0, 4_990)

it(
  'acknowledges one sender at most three times, however many messages wait to be read again',
  { timeout: 150_000 },
  async () => {
    mail = await startMailServer()
    server = await serve({
      env: {
        SMTP_URL: mail.url,
        NOTIFY_EMAIL: 'owner@farm.example',
        VISITOR_ACK: 'true',
        // This machine reads a crowd of long messages faster than the attacker's did: a shorter
        // deadline makes most of them miss it, as they did there, while one reading alone (as
        // they are read again, one at a time) still fits in it on a slow machine.
        ANALYSIS_TIMEOUT_MS: '250',
        // The attack's own numbers: one client may send this many (the default allows 10 a minute).
        SUBMISSION_RATE_LIMIT: '200',
      },
    })
    const sent = await Promise.all(
      Array.from({ length: 120 }, (_, n) =>
        fetch(`${server!.url}/api/submissions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `Visitor ${n}`, email: `visitor${n}@example.com`, message }),
        }).then((response) => response.status),
      ),
    )
    expect(sent.every((status) => status === 201)).toBe(true)
    // Read again 15 s on: every lead is read, and three acknowledgements go out, no more.
    const database = new Sqlite(server.databasePath, { readonly: true })
    const read = database.prepare('SELECT count(*) FROM submissions WHERE reanalyse_at IS NULL').pluck()
    await expect.poll(() => read.get(), { timeout: 120_000, interval: 500 }).toBe(120)
    // Many missed their deadline in the crowd and took the path read again later.
    const readAgain = database.prepare('SELECT count(*) FROM submissions WHERE analysis_attempts > 0').pluck().get()
    expect(readAgain).toBeGreaterThan(0)
    const acknowledged = database.prepare("SELECT count(*) FROM replies WHERE kind = 'acknowledgement'").pluck().get()
    database.close()
    expect(acknowledged).toBe(3)
    const toVisitors = () => mail!.mails.filter((one) => JSON.stringify(one.to).includes('visitor')).length
    await expect.poll(toVisitors, { timeout: 10_000 }).toBe(3)
  },
)
