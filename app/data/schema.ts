import { isNotNull, sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { Analysis } from '#app/analysis/analysis'
import { replyKinds } from '#app/replies/reply'
import { submissionStatuses, type SpamReason } from '#app/submissions/submission'

// `id` is an INTEGER PRIMARY KEY, so it is SQLite's rowid: the table's own
// B-tree is ordered by it and newest-first reads walk it backwards with no
// extra index or sort (see docs/decisions/002-submission-storage.md).
export const submissions = sqliteTable(
  'submissions',
  {
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    aiResponse: text('ai_response'),
    analysis: text('analysis', { mode: 'json' }).$type<Analysis>(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    /** Why a submission was set aside as spam; null for the inbox. */
    spamReasons: text('spam_reasons', { mode: 'json' }).$type<SpamReason[]>(),
    status: text('status', { enum: submissionStatuses }).notNull().default('new'),
    /**
     * When a message stored without an analysis (it failed or ran out of time) is read again;
     * null when nothing is owed. Until then it is neither mailed nor told to the watchers.
     */
    reanalyseAt: integer('reanalyse_at', { mode: 'timestamp_ms' }),
    analysisAttempts: integer('analysis_attempts').notNull().default(0),
  },
  (table) => [
    // Spam is a small part of the table: the spam folder reads it newest first from this
    // index instead of walking past every kept submission.
    index('submissions_spam_newest_first').on(table.id).where(isNotNull(table.spamReasons)),
    index('submissions_to_reanalyse').on(table.reanalyseAt).where(isNotNull(table.reanalyseAt)),
    // An update's audience finds each subscriber's submissions by their address.
    index('submissions_by_email').on(sql`lower(${table.email})`),
    // HANDLED_RETENTION_DAYS walks the handled ones oldest first, never the whole table.
    index('submissions_handled_by_age')
      .on(table.createdAt)
      .where(sql`${table.status} = 'handled' AND ${table.spamReasons} IS NULL`),
  ],
)

export type SubmissionRow = typeof submissions.$inferSelect

/**
 * The owner's signed-in browsers. The cookie holds a random id; only its SHA-256 is kept
 * here, so a copy of the database holds no cookie that works.
 */
export const sessions = sqliteTable('sessions', {
  idHash: text('id_hash').primaryKey(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
})

/**
 * One row: a salted scrypt hash of the owner password the sessions were made with, so a
 * changed OWNER_PASSWORD is noticed at start and ends every session.
 */
export const ownerPassword = sqliteTable('owner_password', {
  id: integer('id').primaryKey(),
  salt: text('salt').notNull(),
  hash: text('hash').notNull(),
})

/**
 * What the analysis found in each kept submission, one row per intent, product and urgency,
 * so the inbox filters by walking an index in newest-first order. Written by triggers
 * (drizzle/0006_inbox_search.sql) from the stored analysis.
 */
export const submissionTags = sqliteTable(
  'submission_tags',
  {
    kind: text('kind', { enum: ['intent', 'product', 'urgency'] }).notNull(),
    value: text('value').notNull(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.kind, table.value, table.submissionId] }),
    // The triggers and the foreign key look tags up by submission.
    index('submission_tags_by_submission').on(table.submissionId),
  ],
)

/**
 * How many inbox submissions (not spam) carry each tag, and each status, and how many mails to
 * visitors failed and wait for the owner (`delivery`, `failed`); kept by triggers (drizzle/0006,
 * 0007, 0010), so a count costs one read however large the inbox.
 */
export const tagCounts = sqliteTable(
  'tag_counts',
  {
    kind: text('kind', { enum: ['intent', 'product', 'urgency', 'status', 'delivery'] }).notNull(),
    value: text('value').notNull(),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.value] })],
)

export const outboxStatuses = ['pending', 'sent', 'failed'] as const

/**
 * A mail owed to the owner about a kept submission, written in the same transaction as the
 * submission itself, so a lead acknowledged to its visitor is mailed even if the process
 * dies next. `mailKey` names the mail (single or digest) it went out in.
 */
export const outbox = sqliteTable(
  'outbox',
  {
    id: integer('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: outboxStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    mailKey: text('mail_key'),
    lastError: text('last_error'),
  },
  (table) => [
    // The sender reads what is due, oldest first, and counts the mails of the last window.
    index('outbox_due').on(table.status, table.nextAttemptAt),
    index('outbox_sent').on(table.sentAt),
    // Deleting a submission (old spam) looks up its mail by this.
    index('outbox_by_submission').on(table.submissionId),
  ],
)

export type OutboxRow = typeof outbox.$inferSelect

export const replyStatuses = ['queued', 'sent', 'failed'] as const

/**
 * A mail from the farm to a visitor about their submission: the owner's reply, or the automatic
 * acknowledgement. The row is its own outbox entry, written in one transaction with what caused
 * it. Its Message-ID is kept, and `references` holds the Message-IDs of the thread's earlier
 * mails (oldest first), so the visitor's mail program shows one conversation.
 */
export const replies = sqliteTable(
  'replies',
  {
    id: integer('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: replyKinds }).notNull(),
    toAddress: text('to_address').notNull(),
    /** The mailbox the address reaches, as the acknowledgement's once-a-day cap compares it (see mailboxKey). */
    addressKey: text('address_key').notNull(),
    /** The words sent: the owner's, or the acknowledgement's text as it was when queued. */
    text: text('text').notNull(),
    messageId: text('message_id').notNull(),
    references: text('references'),
    status: text('status', { enum: replyStatuses }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** When it was queued, or queued again by the owner: it is tried for a day from then. */
    queuedAt: integer('queued_at', { mode: 'timestamp_ms' }).notNull(),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    /** The mail server's own words for the last failure. */
    lastError: text('last_error'),
    /** A failed mail the owner has seen and set aside: no longer counted as waiting for them. */
    dismissedAt: integer('dismissed_at', { mode: 'timestamp_ms' }),
    /** The sending form's or the caller's key: the same key twice is one reply. */
    requestKey: text('request_key'),
    /** The subscriber this mail asks to confirm they want updates (with its link), if it asks. */
    subscriberId: integer('subscriber_id').references(() => subscribers.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('replies_message_id').on(table.messageId),
    uniqueIndex('replies_request_key').on(table.requestKey),
    index('replies_by_submission').on(table.submissionId, table.id),
    index('replies_due').on(table.status, table.nextAttemptAt),
    // The acknowledgement's caps (one per address a day, so many an hour) read the last day's.
    index('replies_by_kind').on(table.kind, table.createdAt),
  ],
)

export type ReplyRow = typeof replies.$inferSelect

/** The owner's named replies ("Eggs this week"), with placeholders filled in when chosen. */
export const savedReplies = sqliteTable(
  'saved_replies',
  {
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    /** The name as it is compared: trimmed, lower case, so "Eggs" and "eggs " are one name. */
    nameKey: text('name_key').notNull(),
    text: text('text').notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [uniqueIndex('saved_replies_name').on(table.nameKey)],
)

/** Texts the owner writes once and the site sends for them, by name (the acknowledgement's). */
export const farmTexts = sqliteTable('farm_texts', {
  key: text('key').primaryKey(),
  text: text('text').notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
})

export const subscriberStatuses = ['asked', 'subscribed', 'unsubscribed', 'undeliverable'] as const
export type SubscriberStatus = (typeof subscriberStatuses)[number]

/**
 * Who gets the farm's updates, one row per mailbox: asked to confirm, subscribed (with the words
 * they agreed to, or the owner's note of how they asked), unsubscribed (never mailed an update
 * again, nor asked again), or undeliverable (the mail server refused the address for good).
 */
export const subscribers = sqliteTable(
  'subscribers',
  {
    id: integer('id').primaryKey(),
    email: text('email').notNull(),
    /** The mailbox the address reaches (see mailboxKey): one row each. */
    addressKey: text('address_key').notNull(),
    name: text('name').notNull(),
    status: text('status', { enum: subscriberStatuses }).notNull(),
    /** The words they said yes to, or the owner's note of how they asked. */
    consent: text('consent'),
    addedBy: text('added_by', { enum: ['visitor', 'owner'] }).notNull(),
    askedAt: integer('asked_at', { mode: 'timestamp_ms' }),
    subscribedAt: integer('subscribed_at', { mode: 'timestamp_ms' }),
    unsubscribedAt: integer('unsubscribed_at', { mode: 'timestamp_ms' }),
    /** Who took them off: they themselves (by their link, which may undo it for a day) or the owner. */
    unsubscribedBy: text('unsubscribed_by', { enum: ['them', 'owner'] }),
    /** Why the mail server refused the address, when it did. */
    lastError: text('last_error'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    uniqueIndex('subscribers_address').on(table.addressKey),
    index('subscribers_by_status').on(table.status, table.id),
  ],
)

export type SubscriberRow = typeof subscribers.$inferSelect

/** An update or offer the owner sent to subscribers, with the audience it was aimed at. */
export const updates = sqliteTable(
  'updates',
  {
    id: integer('id').primaryKey(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    products: text('products', { mode: 'json' }).$type<string[]>().notNull(),
    intents: text('intents', { mode: 'json' }).$type<string[]>().notNull(),
    recipients: integer('recipients').notNull(),
    /** The sending form's or the caller's Idempotency-Key: the same key twice is one update. */
    requestKey: text('request_key'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [uniqueIndex('updates_request_key').on(table.requestKey)],
)

export type UpdateRow = typeof updates.$inferSelect

export const updateMailStatuses = ['queued', 'sent', 'failed', 'skipped'] as const

/**
 * One update's mail to one subscriber: its outbox entry, written in the update's transaction.
 * `skipped` when the subscriber left (or bounced) before their turn.
 */
export const updateMails = sqliteTable(
  'update_mails',
  {
    id: integer('id').primaryKey(),
    updateId: integer('update_id')
      .notNull()
      .references(() => updates.id, { onDelete: 'cascade' }),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    status: text('status', { enum: updateMailStatuses }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    /** Since when it has failed without a break: it is tried for a day from then. */
    failingSince: integer('failing_since', { mode: 'timestamp_ms' }),
    lastError: text('last_error'),
  },
  (table) => [
    uniqueIndex('update_mails_once').on(table.updateId, table.subscriberId),
    index('update_mails_due').on(table.status, table.nextAttemptAt),
    index('update_mails_by_subscriber').on(table.subscriberId),
    // A report counts one update's mails by status from this index alone.
    index('update_mails_report').on(table.updateId, table.status, table.attempts),
  ],
)

/** Keys the site signs its links with (the updates' confirm and unsubscribe links), made once and kept. */
export const signingKeys = sqliteTable('signing_keys', {
  name: text('name').primaryKey(),
  key: text('key').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
})

export const webhookStatuses = ['pending', 'sent', 'failed'] as const

/**
 * A lead owed to the owner's webhook (WEBHOOK_URL), written in the lead's own transaction and
 * posted from here until the endpoint answers 2xx. `messageId` is the `webhook-id` header, the
 * same on every try, so the receiver can drop a repeat.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    status: text('status', { enum: webhookStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    lastError: text('last_error'),
  },
  (table) => [
    uniqueIndex('webhook_deliveries_message_id').on(table.messageId),
    index('webhook_deliveries_due').on(table.status, table.nextAttemptAt),
    index('webhook_deliveries_by_submission').on(table.submissionId),
  ],
)

/** A phone or browser of the owner's that asked to be told of each lead (Web Push). */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: integer('id').primaryKey(),
    /** The push service's address for this browser: https, on one of PUSH_HOSTS. */
    endpoint: text('endpoint').notNull(),
    /** The browser's public key (P-256, base64url) and its auth secret: what each push is encrypted for. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [uniqueIndex('push_subscriptions_endpoint').on(table.endpoint)],
)

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect

/** `collapsed`: told as part of one 'N new leads' push rather than on its own. */
export const pushStatuses = ['pending', 'sent', 'collapsed', 'failed'] as const

/**
 * One lead owed to one subscription: written in the lead's own transaction (the outbox) and
 * pushed from here. A subscription the push service says is gone takes its rows with it.
 */
export const pushMessages = sqliteTable(
  'push_messages',
  {
    id: integer('id').primaryKey(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: pushStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    lastError: text('last_error'),
  },
  (table) => [
    index('push_messages_due').on(table.status, table.nextAttemptAt),
    // How many a subscription was sent in the last minute, for the burst's collapse.
    index('push_messages_recent').on(table.subscriptionId, table.status, table.sentAt),
    index('push_messages_by_submission').on(table.submissionId),
  ],
)

/**
 * Everyone the owner made the site forget: a salted hash of the address (see
 * app/lifecycle/erasures.server.ts), never the address itself, and when. Kept also in a file
 * beside the backups, so a restored backup is made to forget them again at start.
 */
export const erasures = sqliteTable('erasures', {
  /** Of the address as their submissions are matched: itself, ASCII letters in lower case. */
  addressHash: text('address_hash').primaryKey(),
  /** Of the mailbox it reaches (see mailboxKey), as their subscription is matched. */
  mailboxHash: text('mailbox_hash').notNull(),
  erasedAt: integer('erased_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * The highest submission id ever given, kept by a trigger when submissions are deleted
 * (drizzle/0014): a new lead's id is above it, so an id deleted is never given again, and a
 * repeated delete, or a card left open in a tab, can never reach another person's lead.
 */
export const highestIds = sqliteTable('highest_ids', {
  tableName: text('table_name').primaryKey(),
  id: integer('id').notNull(),
})
