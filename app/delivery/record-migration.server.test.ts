// drizzle/0015 joins the five queues of the release before it into one record of everything owed:
// every item, in every state, keeps its lead, its target, its tries and its words.
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { migrationsFolder, migrationsUpTo } from '#tests/support/database'
import { tempDatabasePath } from '#tests/support/server'

const opened: OpenDatabase[] = []
afterEach(() => {
  for (const database of opened.splice(0)) database.close()
})

const at = Date.parse('2026-11-20T08:00:00Z')
const minute = 60_000
const refused = '554 5.7.1 Message refused'
const gaveUp = 'Gave up after a day of trying. 421 busy'

/** A database as the previous release left it: items queued, retrying, failed, given up and sent in each of its five queues. */
function previousRelease(path: string) {
  const old = openDatabase(path, migrationsUpTo('0014_data_safe_for_years'))
  const { sqlite } = old
  const lead = (name: string) =>
    Number(
      sqlite
        .prepare(
          "INSERT INTO submissions (name, email, message, created_at) VALUES (?, 'ann@example.com', 'Honey?', ?)",
        )
        .run(name, at).lastInsertRowid,
    )
  const ann = lead('Ann')
  // Each queue's five states: [status, attempts, last error, sent].
  const states: Array<[string, number, string | null, boolean]> = [
    ['waiting', 0, null, false],
    ['waiting', 2, '421 busy', false],
    ['failed', 0, refused, false],
    ['failed', 9, gaveUp, false],
    ['sent', 1, null, true],
  ]
  states.forEach(([status, attempts, error, sent], n) => {
    const created = at + n * minute
    const sentAt = sent ? created + 1_000 : null
    sqlite
      .prepare(
        'INSERT INTO outbox (submission_id, status, attempts, next_attempt_at, created_at, sent_at, mail_key, last_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        ann,
        status === 'waiting' ? 'pending' : status,
        attempts,
        created + 5_000,
        created,
        sentAt,
        sent ? 'digest-9' : null,
        error,
      )
    sqlite
      .prepare(
        'INSERT INTO webhook_deliveries (submission_id, message_id, status, attempts, next_attempt_at, created_at, sent_at, last_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        ann,
        `msg_${n}`,
        status === 'waiting' ? 'pending' : status,
        attempts,
        created + 5_000,
        created,
        sentAt,
        error,
      )
    // A mail to a visitor is inserted queued; the header's count of failed ones moves with its updates.
    const reply = sqlite
      .prepare(
        "INSERT INTO replies (submission_id, kind, to_address, address_key, text, message_id, queued_at, next_attempt_at, created_at) VALUES (?, 'reply', 'ann@example.com', 'ann@example.com', ?, ?, ?, ?, ?)",
      )
      .run(ann, `Reply ${n}`, `<r${n}@farm.test>`, created, created, created).lastInsertRowid
    sqlite
      .prepare(
        'UPDATE replies SET status = ?, attempts = ?, next_attempt_at = ?, sent_at = ?, last_error = ? WHERE id = ?',
      )
      .run(status === 'waiting' ? 'queued' : status, attempts, created + 5_000, sentAt, error, reply)
  })
  const phone = sqlite
    .prepare(
      "INSERT INTO push_subscriptions (endpoint, p256dh, auth, created_at) VALUES ('https://fcm.googleapis.com/fcm/send/a', 'k', 'a', ?)",
    )
    .run(at).lastInsertRowid
  const pushStates = [...states, ['collapsed', 0, null, true] as [string, number, string | null, boolean]]
  pushStates.forEach(([status, attempts, error, sent], n) => {
    const created = at + n * minute
    sqlite
      .prepare(
        'INSERT INTO push_messages (subscription_id, submission_id, status, attempts, next_attempt_at, created_at, sent_at, last_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        phone,
        ann,
        status === 'waiting' ? 'pending' : status,
        attempts,
        created + 5_000,
        created,
        sent ? created + 1_000 : null,
        error,
      )
  })
  const update = sqlite
    .prepare(
      "INSERT INTO updates (subject, text, products, intents, recipients, created_at) VALUES ('Honey', 'In', '[]', '[]', 6, ?)",
    )
    .run(at).lastInsertRowid
  const updateStates = [
    ...states,
    ['skipped', 0, 'The subscriber is unsubscribed.', false] as [string, number, string | null, boolean],
  ]
  updateStates.forEach(([status, attempts, error, sent], n) => {
    const subscriber = sqlite
      .prepare(
        "INSERT INTO subscribers (email, address_key, name, status, added_by, created_at) VALUES (?, ?, 'S', 'subscribed', 'owner', ?)",
      )
      .run(`s${n}@example.com`, `s${n}@example.com`, at).lastInsertRowid
    sqlite
      .prepare(
        'INSERT INTO update_mails (update_id, subscriber_id, status, attempts, next_attempt_at, sent_at, failing_since, last_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        update,
        subscriber,
        status === 'waiting' ? 'queued' : status,
        attempts,
        at + 5_000,
        sent ? at + 1_000 : null,
        attempts > 0 && !sent ? at : null,
        error,
      )
  })
  const failedCount = sqlite
    .prepare("SELECT count FROM tag_counts WHERE kind = 'delivery' AND value = 'failed'")
    .pluck()
  expect(failedCount.get()).toBe(2)
  old.close()
  return { ann }
}

it('keeps every item of the five queues, in every state, in one record with one vocabulary', () => {
  const path = tempDatabasePath()
  const { ann } = previousRelease(path)
  const database = openDatabase(path, migrationsFolder)
  opened.push(database)
  const { sqlite } = database
  const rows = (kind: string) =>
    sqlite
      .prepare(
        'SELECT state, attempts, failing_since AS since, sent_in AS sentIn, receipt_key AS receipt, last_error AS error, submission_id AS lead, sent_at IS NOT NULL AS sent FROM deliveries WHERE kind = ? ORDER BY id',
      )
      .all(kind)
  const five = (created: (n: number) => number | null) => [
    { state: 'queued', attempts: 0, since: null, error: null, sent: 0 },
    { state: 'retrying', attempts: 2, since: created(1), error: '421 busy', sent: 0 },
    { state: 'failed', attempts: 0, since: null, error: refused, sent: 0 },
    { state: 'gave-up', attempts: 9, error: gaveUp, sent: 0 },
    { state: 'sent', attempts: 1, error: null, sent: 1 },
  ]
  const createdAt = (n: number) => at + n * minute
  expect(rows('owner-mail')).toMatchObject(
    five(createdAt).map((row, n) => ({ ...row, lead: ann, sentIn: n === 4 ? 'digest-outbox-9' : null })),
  )
  expect(rows('webhook-post')).toMatchObject(
    five(createdAt).map((row, n) => ({ ...row, lead: ann, receipt: `msg_${n}` })),
  )
  expect(rows('visitor-mail')).toMatchObject(five(createdAt).map((row) => ({ ...row, lead: ann })))
  expect(rows('push')).toMatchObject([
    ...five(createdAt).map((row) => ({ ...row, lead: ann, sentIn: null })),
    { state: 'sent', sentIn: 'burst', sent: 1 },
  ])
  expect(rows('update-mail')).toMatchObject([
    ...five(() => at).map((row) => ({ ...row, lead: null })),
    { state: 'skipped', error: 'The subscriber is unsubscribed.', sent: 0 },
  ])
  // The threads read their mails' states from the record; the old queues are gone.
  const visitorMails = sqlite
    .prepare('SELECT r.text, d.state FROM replies r JOIN deliveries d ON d.reply_id = r.id ORDER BY r.id')
    .all()
  expect(visitorMails).toEqual(
    ['queued', 'retrying', 'failed', 'gave-up', 'sent'].map((state, n) => ({ text: `Reply ${n}`, state })),
  )
  const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()
  expect(tables).toContain('deliveries')
  expect(
    tables.filter((name) => ['outbox', 'update_mails', 'webhook_deliveries', 'push_messages'].includes(String(name))),
  ).toEqual([])
  const replyColumns = sqlite.prepare("SELECT name FROM pragma_table_info('replies')").pluck().all()
  expect(replyColumns).not.toContain('status')
})

it('keeps the header’s count of failed mails to visitors, and moves it with the record from then on', () => {
  const path = tempDatabasePath()
  previousRelease(path)
  const database = openDatabase(path, migrationsFolder)
  opened.push(database)
  const { sqlite } = database
  const failedCount = sqlite
    .prepare("SELECT count FROM tag_counts WHERE kind = 'delivery' AND value = 'failed'")
    .pluck()
  expect(failedCount.get()).toBe(2)
  sqlite.prepare("UPDATE deliveries SET dismissed_at = 1 WHERE kind = 'visitor-mail' AND state = 'gave-up'").run()
  expect(failedCount.get()).toBe(1)
  sqlite.prepare("UPDATE deliveries SET state = 'queued' WHERE kind = 'visitor-mail' AND state = 'failed'").run()
  expect(failedCount.get()).toBe(0)
  sqlite.prepare("UPDATE deliveries SET state = 'failed' WHERE kind = 'visitor-mail' AND state = 'retrying'").run()
  expect(failedCount.get()).toBe(1)
  sqlite.prepare('DELETE FROM submissions').run()
  expect(failedCount.get()).toBe(0)
  expect(sqlite.prepare('SELECT count(*) FROM deliveries WHERE submission_id IS NOT NULL').pluck().get()).toBe(0)
})
