import Sqlite from 'better-sqlite3'

const hourMs = 60 * 60 * 1000
const dayMs = 24 * hourMs

/**
 * A season's known leads, replies, subscribers and an update, at known times before `now`, written
 * straight into a migrated database file (so the triggers count them as the app's writes would).
 * Seen from Wednesday 25 Nov 2026, 12:00 UTC, the leads fall in the weeks of 23, 16 and 9 Nov and
 * 19 Oct 2026, and one on 1 Jan; `replies` are the team's replies (and an acknowledgement), after the lead.
 */
export const seasonLeads = [
  { name: 'a', ago: 2 * hourMs, intents: ['order'], products: ['eggs'], status: 'new', replies: [] },
  {
    name: 'b',
    ago: 50 * hourMs,
    intents: ['product_inquiry'],
    products: ['eggs', 'honey'],
    status: 'new',
    replies: [],
  },
  {
    name: 'c',
    ago: 27 * hourMs,
    intents: ['wholesale'],
    products: ['eggs'],
    status: 'handled',
    replies: [30 * 60_000],
  },
  { name: 'd', ago: 26 * hourMs, intents: ['order'], products: ['eggs'], status: 'new', replies: [], spam: true },
  {
    name: 'e',
    ago: 9 * dayMs + 3 * hourMs,
    intents: ['order', 'wholesale'],
    products: ['eggs'],
    status: 'handled',
    replies: [2 * hourMs, 3 * dayMs],
    acknowledged: true,
  },
  {
    name: 'f',
    ago: 7 * dayMs + 3 * hourMs,
    intents: ['pricing'],
    products: ['honey'],
    status: 'handled',
    replies: [5 * hourMs],
  },
  {
    name: 'g',
    ago: 6 * dayMs + 3 * hourMs,
    intents: ['order'],
    products: [],
    status: 'handled',
    replies: [26 * hourMs],
  },
  { name: 'h', ago: 5 * dayMs + 3 * hourMs, intents: ['visit'], products: [], status: 'new', replies: [] },
  { name: 'i', ago: 15 * dayMs, intents: null, products: null, status: 'new', replies: [] },
  { name: 'j', ago: 36 * dayMs, intents: ['order'], products: ['eggs'], status: 'handled', replies: [] },
  { name: 'k', ago: 328 * dayMs, intents: ['order'], products: ['eggs'], status: 'handled', replies: [] },
] as const

/** Subscribers: when they joined and left (or bounced), before `now`. */
export const seasonSubscribers = [
  { name: 's1', status: 'subscribed', joinedAgo: 26 * hourMs, leftAgo: null },
  { name: 's2', status: 'unsubscribed', joinedAgo: 8 * dayMs, leftAgo: 20 * hourMs },
  { name: 's3', status: 'undeliverable', joinedAgo: 16 * dayMs, leftAgo: 7 * dayMs },
  { name: 's4', status: 'asked', joinedAgo: null, leftAgo: null },
  { name: 's5', status: 'subscribed', joinedAgo: 400 * dayMs, leftAgo: null },
] as const

/**
 * The update sent 6 days before `now` to s1, s2, s3 and s5: sent, sent, bounced, failed; s1
 * complained. Its subject holds a long link, as owners write them: no page may widen for it.
 */
export const seasonUpdate = {
  subject: 'Eggs are back: https://farm.example/offers/spring-veg-boxes-and-free-range-eggs-now-available-at-the-gate',
  ago: 6 * dayMs,
}

export function seedSeason(databasePath: string, now: number) {
  const sqlite = new Sqlite(databasePath)
  sqlite.pragma('foreign_keys = ON')
  const lead = sqlite.prepare(
    `INSERT INTO submissions (name, email, message, analysis, created_at, status, spam_reasons)
     VALUES (?, ?, 'Season message', ?, ?, ?, ?)`,
  )
  const reply = sqlite.prepare(
    `INSERT INTO replies (submission_id, kind, to_address, address_key, text, message_id, created_at)
     VALUES (?, ?, ?, ?, 'Thank you', ?, ?)`,
  )
  const ids: Record<string, number> = {}
  sqlite.transaction(() => {
    // Oldest first, as leads come: ids only grow with time.
    for (const seed of [...seasonLeads].sort((x, y) => y.ago - x.ago)) {
      const at = now - seed.ago
      const email = `${seed.name}@example.com`
      const analysis =
        seed.intents === null
          ? null
          : JSON.stringify({
              intents: seed.intents,
              products: seed.products,
              sentiment: { label: 'neutral', score: 0 },
              urgency: { level: 'normal', cues: [] },
              spam: { isSpam: false, reasons: [] },
              source: 'offline',
            })
      const spam = 'spam' in seed && seed.spam ? '["links"]' : null
      const id = Number(lead.run(`Lead ${seed.name}`, email, analysis, at, seed.status, spam).lastInsertRowid)
      ids[seed.name] = id
      if ('acknowledged' in seed && seed.acknowledged) {
        reply.run(id, 'acknowledgement', email, email, `<ack.${id}@farm.test>`, at + 60_000)
      }
      seed.replies.forEach((after, n) =>
        reply.run(id, 'reply', email, email, `<reply.${id}.${n}@farm.test>`, at + after),
      )
    }
    const subscriber = sqlite.prepare(
      `INSERT INTO subscribers (email, address_key, name, status, added_by, subscribed_at, unsubscribed_at, unsubscribed_by, created_at)
       VALUES (?, ?, ?, ?, 'visitor', ?, ?, ?, ?)`,
    )
    for (const seed of seasonSubscribers) {
      const email = `${seed.name}@example.com`
      ids[seed.name] = Number(
        subscriber.run(
          email,
          email,
          seed.name,
          seed.status,
          seed.joinedAgo === null ? null : now - seed.joinedAgo,
          seed.leftAgo === null ? null : now - seed.leftAgo,
          seed.status === 'unsubscribed' ? 'them' : null,
          now - 500 * dayMs,
        ).lastInsertRowid,
      )
    }
    const sentAt = now - seasonUpdate.ago
    const update = Number(
      sqlite
        .prepare(
          `INSERT INTO updates (subject, text, products, intents, recipients, created_at) VALUES (?, 'Fresh eggs.', '[]', '[]', 4, ?)`,
        )
        .run(seasonUpdate.subject, sentAt).lastInsertRowid,
    )
    const delivery = sqlite.prepare(
      `INSERT INTO deliveries (kind, update_id, subscriber_id, state, next_attempt_at, created_at, sent_at)
       VALUES ('update-mail', ?, ?, ?, ?, ?, ?)`,
    )
    const mails: Array<[string, string]> = [
      ['s1', 'sent'],
      ['s2', 'sent'],
      ['s3', 'bounced'],
      ['s5', 'failed'],
    ]
    for (const [name, state] of mails) {
      const id = Number(
        delivery.run(update, ids[name], state, sentAt, sentAt, state === 'failed' ? null : sentAt + 60_000)
          .lastInsertRowid,
      )
      ids[`mail-${name}`] = id
    }
    sqlite
      .prepare(
        `INSERT INTO returned_mails (kind, delivery_id, update_id, address, address_key, permanent, source, received_at)
         VALUES ('complaint', ?, ?, 's1@example.com', 's1@example.com', 1, 'Report', ?)`,
      )
      .run(ids['mail-s1'], update, sentAt + dayMs)
  })()
  sqlite.close()
  return ids
}

/** The insights page's charts, in the order it shows them. */
export const insightCharts = [
  'What people ask for',
  'Products asked about',
  'How fast leads are answered',
  'Still waiting for an answer',
  'Orders',
  'Products ordered',
  'Subscribers',
  'Updates sent',
]
