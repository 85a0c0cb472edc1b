import { readFileSync, existsSync } from 'node:fs'
import type Sqlite from 'better-sqlite3'

/** A person the tests make the site forget: words found nowhere else, so a trace of them is theirs. */
export const forgettable = {
  name: 'Ottoline Quarrington',
  email: 'Ottoline.Q@zanzibarmail.test',
  message: 'Please keep xylophonic marmalade for Brindlewick cottage',
  /**
   * Every piece that must be gone from the file's bytes once they are forgotten: the words, and
   * their endings, since the search index keeps a term as its difference from the one before it.
   */
  traces: [
    ...['Ottoline', 'Quarrington', 'zanzibarmail', 'xylophonic', 'marmalade', 'Brindlewick'],
    ...['oline', 'ngton', 'rmail', 'phonic', 'alade', 'ewick'],
  ],
}

/** Which of `words` can be read, in any case, in the raw bytes of the database file and its WAL. */
export function tracesInFile(databasePath: string, words: string[]): string[] {
  const bytes = [databasePath, `${databasePath}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1').toLowerCase())
    .join('\n')
  return words.filter((word) => bytes.includes(word.toLowerCase()))
}

/**
 * The person in every table that can hold them, as a year of use would leave them: a lead
 * with its analysis, read and handled; a spam message of theirs already purged; the farm's
 * acknowledgement and reply, the owner's mail, the webhook post and the push about the lead;
 * their subscription with the words they agreed to, and an update mailed to them.
 */
export function seedPersonEverywhere(sqlite: Sqlite.Database, person = forgettable, at = Date.now()) {
  const { name, email, message } = person
  const summary = `${name} asks to keep ${message.split(' ').slice(3, 5).join(' ')}.`
  const earlier = sqlite
    .prepare(
      'INSERT INTO submissions (name, email, message, created_at, spam_reasons) VALUES (?, ?, ?, ?, \'["link"]\')',
    )
    .run(name, email, `An old note from ${name}: ${message} http://spam.test`, at - 40 * 86_400_000)
  sqlite.prepare('DELETE FROM submissions WHERE id = ?').run(earlier.lastInsertRowid)
  const lead = Number(
    sqlite
      .prepare(
        'INSERT INTO submissions (name, email, message, created_at, ai_response, analysis) VALUES (?, ?, ?, ?, ?, json(\'{"intents":["product_inquiry"],"products":[],"sentiment":{"label":"neutral","score":0},"urgency":{"level":"normal","cues":[]},"spam":{"isSpam":false,"reasons":[]},"source":"offline"}\'))',
      )
      .run(name, email, message, at, summary).lastInsertRowid,
  )
  sqlite.prepare("UPDATE submissions SET status = 'handled' WHERE id = ?").run(lead)
  const reply = sqlite.prepare(
    "INSERT INTO replies (submission_id, kind, to_address, address_key, text, message_id, status, queued_at, next_attempt_at, created_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, 'sent', ?, ?, ?, ?)",
  )
  reply.run(
    lead,
    'acknowledgement',
    email,
    email.toLowerCase(),
    `Dear ${name}, thank you.`,
    `<ack-${lead}@farm.test>`,
    at,
    at,
    at,
    at,
  )
  reply.run(
    lead,
    'reply',
    email,
    email.toLowerCase(),
    `Hello ${name}, the marmalade is kept.`,
    `<reply-${lead}@farm.test>`,
    at,
    at,
    at,
    at,
  )
  sqlite
    .prepare(
      "INSERT INTO outbox (submission_id, status, next_attempt_at, created_at, sent_at) VALUES (?, 'sent', ?, ?, ?)",
    )
    .run(lead, at, at, at)
  sqlite
    .prepare(
      "INSERT INTO webhook_deliveries (submission_id, message_id, status, next_attempt_at, created_at, sent_at) VALUES (?, ?, 'sent', ?, ?, ?)",
    )
    .run(lead, `msg_${lead}`, at, at, at)
  const phone = sqlite
    .prepare(
      "INSERT OR IGNORE INTO push_subscriptions (endpoint, p256dh, auth, created_at) VALUES ('https://fcm.googleapis.com/fcm/send/phone', 'key', 'auth', ?)",
    )
    .run(at)
  const phoneId = phone.changes
    ? phone.lastInsertRowid
    : sqlite.prepare('SELECT id FROM push_subscriptions').pluck().get()
  sqlite
    .prepare(
      "INSERT INTO push_messages (subscription_id, submission_id, status, next_attempt_at, created_at, sent_at) VALUES (?, ?, 'sent', ?, ?, ?)",
    )
    .run(phoneId, lead, at, at, at)
  const subscriber = sqlite
    .prepare(
      "INSERT INTO subscribers (email, address_key, name, status, consent, added_by, asked_at, subscribed_at, created_at) VALUES (?, ?, ?, 'subscribed', ?, 'visitor', ?, ?, ?)",
    )
    .run(email, email.toLowerCase(), name, `Yes, ${name} wants the farm's updates`, at, at, at).lastInsertRowid
  const update = sqlite
    .prepare(
      "INSERT INTO updates (subject, text, products, intents, recipients, created_at) VALUES ('Honey is in', 'Jars at the gate.', '[]', '[]', 1, ?)",
    )
    .run(at).lastInsertRowid
  sqlite
    .prepare(
      "INSERT INTO update_mails (update_id, subscriber_id, status, next_attempt_at, sent_at) VALUES (?, ?, 'sent', ?, ?)",
    )
    .run(update, subscriber, at, at)
  return { lead }
}
