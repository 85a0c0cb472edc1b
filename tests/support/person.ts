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
 * their subscription with the words they agreed to, and an update mailed to them; their answer
 * read back from the farm's mailbox, and a bounce of theirs kept as it came; a product they wait for.
 */
export function seedPersonEverywhere(
  sqlite: Sqlite.Database,
  person = forgettable,
  at = Date.now(),
  /** The previous release kept what it owed in five tables of their own (drizzle/0015 joined them). */
  written: 'now' | 'before one delivery engine' = 'now',
) {
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
  const owed = written === 'before one delivery engine' ? oweAsPreviousRelease : oweEverything
  owed(sqlite, { lead, name, email, at })
  if (written === 'now') orderFrom(sqlite, lead, at)
  return { lead }
}

/** The order the team confirmed from their lead (issue 49), with its lines and its history. */
export function orderFrom(sqlite: Sqlite.Database, lead: number, at: number) {
  const order = sqlite
    .prepare(
      "INSERT INTO orders (submission_id, pick_up_date, pick_up_from, pick_up_to, total_cents, confirmed_at, changed_at) VALUES (?, '2026-12-05', '09:00', '12:00', 1100, ?, ?)",
    )
    .run(lead, at, at).lastInsertRowid
  sqlite
    .prepare(
      "INSERT INTO order_lines (order_id, position, product, quantity, unit, stock_taken, price_cents) VALUES (?, 0, 'honey', 2, 'jar', 2, 1100)",
    )
    .run(order)
  sqlite.prepare("INSERT INTO order_events (order_id, type, at) VALUES (?, 'order.confirmed', ?)").run(order, at)
  return Number(order)
}

type Owing = { lead: number; name: string; email: string; at: number }

/** The mails to them, and what the site owed about the lead, each kind, all sent. */
function oweEverything(sqlite: Sqlite.Database, { lead, name, email, at }: Owing) {
  const reply = sqlite.prepare(
    'INSERT INTO replies (submission_id, kind, to_address, address_key, text, message_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
  // What the site owed about the lead and to them, every kind, all sent.
  const owed = sqlite.prepare(
    "INSERT INTO deliveries (kind, submission_id, reply_id, update_id, subscriber_id, phone_id, receipt_key, state, next_attempt_at, created_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'sent', ?, ?, ?)",
  )
  const owe = (
    kind: string,
    about: { lead?: unknown; reply?: unknown; update?: unknown; subscriber?: unknown; phone?: unknown; key?: string },
  ) =>
    owed.run(
      kind,
      about.lead ?? null,
      about.reply ?? null,
      about.update ?? null,
      about.subscriber ?? null,
      about.phone ?? null,
      about.key ?? null,
      at,
      at,
      at,
    )
  for (const [kind, text, messageId] of [
    ['acknowledgement', `Dear ${name}, thank you.`, `<ack-${lead}@farm.test>`],
    ['reply', `Hello ${name}, the marmalade is kept.`, `<reply-${lead}@farm.test>`],
  ]) {
    const mail = reply.run(lead, kind, email, email.toLowerCase(), text, messageId, at).lastInsertRowid
    owe('visitor-mail', { lead, reply: mail })
  }
  owe('owner-mail', { lead })
  owe('webhook-post', { lead, key: `msg_${lead}` })
  const phone = sqlite
    .prepare(
      "INSERT OR IGNORE INTO push_subscriptions (endpoint, p256dh, auth, created_at) VALUES ('https://fcm.googleapis.com/fcm/send/phone', 'key', 'auth', ?)",
    )
    .run(at)
  const phoneId = phone.changes
    ? phone.lastInsertRowid
    : sqlite.prepare('SELECT id FROM push_subscriptions').pluck().get()
  owe('push', { lead, phone: phoneId })
  const { subscriber, update } = theirSubscription(sqlite, { name, email, at })
  owe('update-mail', { update, subscriber })
  // What came back from their mailbox: their answer, with a file, and an update mail returned as it came.
  sqlite
    .prepare(
      "INSERT INTO replies (submission_id, kind, to_address, address_key, text, message_id, created_at, attachments) VALUES (?, 'answer', ?, ?, ?, ?, ?, json(?))",
    )
    .run(
      lead,
      email,
      email.toLowerCase(),
      `Thank you, ${name} here again.`,
      `<answer-${lead}@zanzibarmail.test>`,
      at,
      JSON.stringify([{ name: `${name}.pdf`, bytes: 10 }]),
    )
  const bounced = sqlite
    .prepare(
      "INSERT INTO returned_mails (kind, address, address_key, permanent, status, words, source, received_at) VALUES ('bounce', ?, ?, 1, '5.2.2', ?, ?, ?)",
    )
    .run(
      email,
      email.toLowerCase(),
      `550 5.2.2 <${email}>: mailbox full`,
      `Final-Recipient: rfc822; ${email}\nTo: ${name} <${email}>`,
      at,
    )
  sqlite
    .prepare("INSERT INTO mail_suppressions (address_key, kind, returned_mail_id, since) VALUES (?, 'bounce', ?, ?)")
    .run(email.toLowerCase(), bounced.lastInsertRowid, at)
  // Their 'Tell me when it's ready', and the record that they were told.
  sqlite
    .prepare(
      "INSERT OR IGNORE INTO product_waits (product, email, address_key, asked_at) VALUES ('marmalade', ?, ?, ?)",
    )
    .run(email, email.toLowerCase(), at)
  sqlite
    .prepare("INSERT OR IGNORE INTO product_news (product, season, address_key, told_at) VALUES ('honey', 2026, ?, ?)")
    .run(email.toLowerCase(), at)
}

/** The same, as the release before one delivery engine wrote it: five queues. */
function oweAsPreviousRelease(sqlite: Sqlite.Database, { lead, name, email, at }: Owing) {
  const reply = sqlite.prepare(
    "INSERT INTO replies (submission_id, kind, to_address, address_key, text, message_id, status, queued_at, next_attempt_at, created_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, 'sent', ?, ?, ?, ?)",
  )
  for (const [kind, text, messageId] of [
    ['acknowledgement', `Dear ${name}, thank you.`, `<ack-${lead}@farm.test>`],
    ['reply', `Hello ${name}, the marmalade is kept.`, `<reply-${lead}@farm.test>`],
  ]) {
    reply.run(lead, kind, email, email.toLowerCase(), text, messageId, at, at, at, at)
  }
  const sent = (table: string, columns: string, ...values: unknown[]) =>
    sqlite
      .prepare(
        `INSERT INTO ${table} (${columns}, status, next_attempt_at, sent_at) VALUES (${values.map(() => '?').join(', ')}, 'sent', ?, ?)`,
      )
      .run(...values, at, at)
  sent('outbox', 'submission_id, created_at', lead, at)
  sent('webhook_deliveries', 'submission_id, message_id, created_at', lead, `msg_${lead}`, at)
  const phone = sqlite
    .prepare(
      "INSERT INTO push_subscriptions (endpoint, p256dh, auth, created_at) VALUES ('https://fcm.googleapis.com/fcm/send/phone', 'key', 'auth', ?)",
    )
    .run(at).lastInsertRowid
  sent('push_messages', 'subscription_id, submission_id, created_at', phone, lead, at)
  const { subscriber, update } = theirSubscription(sqlite, { name, email, at })
  sent('update_mails', 'update_id, subscriber_id', update, subscriber)
}

/** Their subscription with the words they agreed to, and an update for them. */
function theirSubscription(sqlite: Sqlite.Database, { name, email, at }: Omit<Owing, 'lead'>) {
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
  return { subscriber, update }
}
