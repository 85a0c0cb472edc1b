import { isNotNull, sql } from 'drizzle-orm'
import {
  blob,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
  type AnySQLiteColumn,
} from 'drizzle-orm/sqlite-core'
import type { Analysis } from '#app/analysis/analysis'
import {
  activityKinds,
  availabilities,
  deliveryKinds,
  leadChanges,
  orderEventTypes,
  orderStatuses,
  deliveryStates,
  replyKinds,
  returnedKinds,
  submissionStatuses,
  subscriberStatuses,
  teamRoles,
  type SpamReason,
} from './enums'

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
    /** Who of the team last changed its status (marked it handled, new, or not spam); null for none, or an open inbox. */
    statusChangedBy: integer('status_changed_by').references(() => team.id, { onDelete: 'set null' }),
    /** Who sent it (their address or IPv6 /64), as a salted hash: their share of the unasked mails, on every path. */
    senderKey: text('sender_key'),
    /** The update it answers, when a subscriber wrote back to one: a lead of its own, read as any other. */
    answersUpdate: integer('answers_update').references(() => updates.id, { onDelete: 'set null' }),
    /** Of an answer read back from the farm's mailbox: its Message-ID (or its bytes' hash), so it is one lead however often it comes. */
    mailId: text('mail_id'),
    /** The language the visitor wrote in, as the home page they sent it from was (FARM_LANGUAGES); null for English and when not said (the API, a mail). */
    language: text('language'),
  },
  (table) => [
    // Spam is a small part of the table: the spam folder reads it newest first from this
    // index instead of walking past every kept submission.
    index('submissions_spam_newest_first').on(table.id).where(isNotNull(table.spamReasons)),
    index('submissions_to_reanalyse').on(table.reanalyseAt).where(isNotNull(table.reanalyseAt)),
    // An update's audience finds each subscriber's submissions by their address.
    index('submissions_by_email').on(sql`lower(${table.email})`),
    // HANDLED_RETENTION_DAYS walks the handled ones oldest first, never the whole table.
    uniqueIndex('submissions_mail_id').on(table.mailId).where(isNotNull(table.mailId)),
    index('submissions_handled_by_age')
      .on(table.createdAt)
      .where(sql`${table.status} = 'handled' AND ${table.spamReasons} IS NULL`),
    // The insights count the leads still waiting for an answer, by age, from the newest back.
    index('submissions_waiting_by_age')
      .on(table.createdAt)
      .where(sql`${table.status} = 'new' AND ${table.spamReasons} IS NULL`),
  ],
)

export type SubmissionRow = typeof submissions.$inferSelect

/**
 * The people who work the inbox, each with their own sign-in and role. The first (drizzle/0016) is
 * the owner OWNER_PASSWORD signs in; whatever a person does that the site keeps records their id.
 */
export const team = sqliteTable(
  'team',
  {
    id: integer('id').primaryKey(),
    /** What the team and the card's history call them. */
    name: text('name').notNull(),
    role: text('role', { enum: teamRoles }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    /** What they sign in with, in lower case; null only for the first owner made from OWNER_PASSWORD. */
    email: text('email'),
    /** `scrypt$N$r$p$salt$hash` (app/owner/passwords.server.ts); null until they set one. */
    passwordHash: text('password_hash'),
    /** Until they take their invitation. */
    joinedAt: integer('joined_at', { mode: 'timestamp_ms' }),
    /** Gone from the team; the row stays so what they did still says who. */
    removedAt: integer('removed_at', { mode: 'timestamp_ms' }),
    mailNewLeads: integer('mail_new_leads', { mode: 'boolean' }).notNull().default(true),
    pushNewLeads: integer('push_new_leads', { mode: 'boolean' }).notNull().default(true),
  },
  (table) => [uniqueIndex('team_email').on(table.email).where(sql`${table.removedAt} IS NULL`)],
)

export type TeamRow = typeof team.$inferSelect

/** A link that lets one person set their password and join, once, for 7 days. Only its SHA-256 is kept. */
export const invitations = sqliteTable(
  'invitations',
  {
    tokenHash: text('token_hash').primaryKey(),
    memberId: integer('member_id')
      .notNull()
      .references(() => team.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    /** The link itself, only while its mail waits to be taken by the mail server; then emptied. */
    mailLink: text('mail_link'),
    /** The owner who made it: removing or demoting them ends it. */
    invitedBy: integer('invited_by').references(() => team.id, { onDelete: 'set null' }),
  },
  (table) => [index('invitations_by_member').on(table.memberId)],
)

/** A person's passkeys (WebAuthn credentials): the public key only, and the signature counter. */
export const passkeys = sqliteTable(
  'passkeys',
  {
    /** The credential id, base64url. */
    id: text('id').primaryKey(),
    memberId: integer('member_id')
      .notNull()
      .references(() => team.id, { onDelete: 'cascade' }),
    publicKey: text('public_key').notNull(),
    counter: integer('counter').notNull(),
    transports: text('transports', { mode: 'json' }).$type<string[]>().notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
  },
  (table) => [index('passkeys_by_member').on(table.memberId)],
)

/** Who marked a lead handled or new, or took it out of spam, and when: its card's history. */
export const leadHistory = sqliteTable(
  'lead_history',
  {
    id: integer('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    change: text('change', { enum: leadChanges }).notNull(),
    memberId: integer('member_id').references(() => team.id, { onDelete: 'set null' }),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [index('lead_history_by_submission').on(table.submissionId, table.id)],
)

/**
 * The data's actions, failed sign-ins and the team's changes, for owners to read, kept ACTIVITY_DAYS.
 * A visitor it is about is named only by the erasure list's salted hash of their address.
 */
export const activity = sqliteTable(
  'activity',
  {
    id: integer('id').primaryKey(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    kind: text('kind', { enum: activityKinds }).notNull(),
    /** Who did it; null for a stranger (a failed sign-in) or an open inbox. */
    memberId: integer('member_id').references(() => team.id, { onDelete: 'set null' }),
    /** The site's own words about it: counts, a person of the team's name, a role. */
    detail: text('detail').notNull(),
    /** Of the visitor it was about (their export, their forgetting), as the erasure list keeps it. */
    subjectHash: text('subject_hash'),
    /** The address the request came from. */
    address: text('address'),
  },
  (table) => [index('activity_by_time').on(table.at)],
)

/**
 * The owner's signed-in browsers. The cookie holds a random id; only its SHA-256 is kept
 * here, so a copy of the database holds no cookie that works.
 */
export const sessions = sqliteTable('sessions', {
  idHash: text('id_hash').primaryKey(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
  /** Who signed in. */
  memberId: integer('member_id')
    .notNull()
    .references(() => team.id, { onDelete: 'cascade' }),
})

/**
 * One row: a salted scrypt hash of the OWNER_PASSWORD last applied, so a changed one is noticed at
 * start: it becomes the first owner's password again (a way back in) and ends their sessions.
 */
export const ownerPassword = sqliteTable('owner_password', {
  id: integer('id').primaryKey(),
  salt: text('salt').notNull(),
  hash: text('hash').notNull(),
  /** The person it was applied to: only they are let back in by a new OWNER_PASSWORD. */
  memberId: integer('member_id').references(() => team.id, { onDelete: 'set null' }),
})

/**
 * One row at most: the hash of the one-time link that claims the site while no one of the team can
 * sign in, made by `npm run claim` (or a look from this machine), good for an hour. In the
 * database, not in the site's memory, so the command's own process can make it.
 */
export const claimLinks = sqliteTable('claim_links', {
  id: integer('id').primaryKey(),
  hash: text('hash').notNull(),
  until: integer('until').notNull(),
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
 * 0007, 0015), so a count costs one read however large the inbox.
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

/**
 * The farm's weeks: each Monday, 00:00 on the farm's clock (FARM_TIME_ZONE), in ms, from the one
 * before 1970 to 2200. The triggers that count by week look a moment's week up here (drizzle/0028),
 * so a week starts at the farm's midnight, an hour earlier or later across a change of the clocks.
 */
export const farmWeeks = sqliteTable('farm_weeks', {
  week: integer('week').primaryKey(),
})

/**
 * One row: the time zone the farm's weeks are made for, and the time zone data that made them
 * (Node's, `process.versions.tz`): either changed, the weeks and every count by week are made anew.
 */
export const farmWeeksMade = sqliteTable('farm_weeks_made', {
  id: integer('id').primaryKey(),
  zone: text('zone').notNull(),
  tzdata: text('tzdata').notNull(),
})

/**
 * How many inbox leads (not spam) came each week (its Monday, 00:00 on the farm's clock, in ms; see `farmWeeks`), by the first
 * intent the analysis found ('unread' while it has none), by each product asked about, and how
 * many of them are answered (`answered`, value ''; see `firstReplies`): kept by
 * triggers (drizzle/0024), so the insights read a row per week and value, however many leads.
 */
export const weeklyLeads = sqliteTable(
  'weekly_leads',
  {
    week: integer('week').notNull(),
    kind: text('kind', { enum: ['intent', 'product', 'answered'] }).notNull(),
    value: text('value').notNull(),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.week, table.kind, table.value] })],
)

/**
 * The first lead's id of each week, spam or not (drizzle/0024): ids only grow, so a week's leads are
 * the inbox's `after` its first id and `before` the next week's, a link to them without a date index.
 */
export const leadWeeks = sqliteTable('lead_weeks', {
  week: integer('week').primaryKey(),
  firstId: integer('first_id').notNull(),
})

/** How long each inbox lead waited for the team's first reply, by the week it came (drizzle/0024). */
export const firstReplies = sqliteTable(
  'first_replies',
  {
    submissionId: integer('submission_id')
      .primaryKey()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    week: integer('week').notNull(),
    waitedMs: integer('waited_ms').notNull(),
  },
  // A week's median and 90th percentile are read in order from here.
  (table) => [index('first_replies_by_week').on(table.week, table.waitedMs)],
)

/**
 * A mail from the farm to a visitor about their submission: the owner's reply, or the automatic
 * acknowledgement. It is owed as one delivery (kind `visitor-mail`), written in one transaction
 * with what caused it. Its Message-ID is kept, and `references` holds the Message-IDs of the
 * thread's earlier mails (oldest first), so the visitor's mail program shows one conversation.
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
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    /** The sending form's or the caller's key: the same key twice is one reply. */
    requestKey: text('request_key'),
    /** The subscriber this mail asks to confirm they want updates (with its link), if it asks. */
    subscriberId: integer('subscriber_id').references(() => subscribers.id, { onDelete: 'set null' }),
    /** Who of the team wrote it; null for the site's own (the acknowledgement, the ask) or an open inbox. */
    sentBy: integer('sent_by').references(() => team.id, { onDelete: 'set null' }),
    /** Of an answer read back: the files it came with, by name and size (the files themselves are not kept). */
    attachments: text('attachments', { mode: 'json' }).$type<Array<{ name: string; bytes: number }>>(),
    /** Of an answer read back past a limit (size, time or memory): kept from its headers, `text` its subject. */
    tooLarge: integer('too_large', { mode: 'boolean' }).notNull().default(false),
  },
  (table) => [
    uniqueIndex('replies_message_id').on(table.messageId),
    uniqueIndex('replies_request_key').on(table.requestKey),
    index('replies_by_submission').on(table.submissionId, table.id),
    // A person's answers on any lead, as their export and forgetting find them.
    index('replies_answers_by_address')
      .on(table.addressKey)
      .where(sql`${table.kind} IN ('answer', 'automatic-answer')`),
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

/**
 * What the owner set on the settings page, by the environment variable's name (SMTP_* for the mail
 * server's parts). The environment still wins over a row; a secret's value is never shown back.
 */
export const farmSettings = sqliteTable('farm_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  changedAt: integer('changed_at', { mode: 'timestamp_ms' }).notNull(),
})

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
    /** The language they were asked in, their lead's (FARM_LANGUAGES): their pages and mails' own words are in it; null for English. */
    language: text('language'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    uniqueIndex('subscribers_address').on(table.addressKey),
    index('subscribers_by_status').on(table.status, table.id),
    // The insights count who joined and who left (or bounced) each week.
    index('subscribers_by_joining').on(table.subscribedAt).where(isNotNull(table.subscribedAt)),
    index('subscribers_by_leaving').on(table.status, table.unsubscribedAt).where(isNotNull(table.unsubscribedAt)),
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
    /** Who of the team sent it. */
    sentBy: integer('sent_by').references(() => team.id, { onDelete: 'set null' }),
  },
  (table) => [uniqueIndex('updates_request_key').on(table.requestKey)],
)

export type UpdateRow = typeof updates.$inferSelect

/** Keys the site signs its links with (the updates' confirm and unsubscribe links), made once and kept. */
export const signingKeys = sqliteTable('signing_keys', {
  name: text('name').primaryKey(),
  key: text('key').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
})

/** A phone or browser of a person of the team that asked to be told of each lead (Web Push). */
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
    /** Whose phone it is: only they are pushed on it, and it goes with them. (Null in no row: drizzle/0021.) */
    memberId: integer('member_id').references(() => team.id, { onDelete: 'cascade' }),
  },
  (table) => [
    uniqueIndex('push_subscriptions_endpoint').on(table.endpoint),
    index('push_subscriptions_by_member').on(table.memberId),
  ],
)

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect

/**
 * Everything the site owes someone, one row each, of every kind: a mail to the owner about a lead
 * (`owner-mail`), a mail to a visitor (`visitor-mail`, its words in `replies`), an update's mail to
 * one subscriber (`update-mail`), a lead posted to the webhook (`webhook-post`), a lead pushed to
 * one of the owner's phones (`push`). Written in the same transaction as its cause, sent by the
 * delivery engine (app/delivery/), and deleted with whatever it is about.
 */
export const deliveries = sqliteTable(
  'deliveries',
  {
    id: integer('id').primaryKey(),
    kind: text('kind', { enum: deliveryKinds }).notNull(),
    /** The lead it is about (every kind but `update-mail`). */
    submissionId: integer('submission_id').references(() => submissions.id, { onDelete: 'cascade' }),
    /** The mail to a visitor it sends. */
    replyId: integer('reply_id').references(() => replies.id, { onDelete: 'cascade' }),
    /** The update, and the subscriber it goes to. */
    updateId: integer('update_id').references(() => updates.id, { onDelete: 'cascade' }),
    subscriberId: integer('subscriber_id').references(() => subscribers.id, { onDelete: 'cascade' }),
    /** The owner's phone it is pushed to. */
    phoneId: integer('phone_id').references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    /** The person of the team an invitation mail goes to. */
    memberId: integer('member_id').references(() => team.id, { onDelete: 'cascade' }),
    /** What happened to an order (`order.confirmed`, `order.collected`…) a webhook post tells. */
    orderEventId: integer('order_event_id').references((): AnySQLiteColumn => orderEvents.id, { onDelete: 'cascade' }),
    state: text('state', { enum: deliveryStates }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    /** Since when it has failed without a break (null while it has not): it is given up a day after. */
    failingSince: integer('failing_since', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    /** What it went out in, when that holds more than it: a digest mail (`digest-7`), a burst of pushes (`burst-12`). */
    sentIn: text('sent_in'),
    /** The id the receiver may drop a repeat by, the same on every try (the webhook's `webhook-id`). */
    receiptKey: text('receipt_key'),
    /** Why it failed, or why it waits to be tried again: the receiver's own words where it answered. */
    lastError: text('last_error'),
    /** A failure the owner has seen and set aside: no longer counted as waiting for them. */
    dismissedAt: integer('dismissed_at', { mode: 'timestamp_ms' }),
  },
  (table) => [
    // Each sender reads its own kind's due rows; what is settled is left out of the index.
    index('deliveries_due')
      .on(table.kind, table.nextAttemptAt)
      .where(sql`${table.state} IN ('queued', 'retrying')`),
    // The owner's digest window counts the mails sent lately, and a phone's the pushes.
    index('deliveries_sent').on(table.kind, table.sentAt).where(isNotNull(table.sentAt)),
    index('deliveries_by_submission').on(table.submissionId),
    // Each of these serves one kind: partial, so a row of another kind costs them no write.
    // A mail to a visitor is sent once; an answer read back is told to the owner's mail, phones and webhook.
    uniqueIndex('deliveries_by_reply')
      .on(table.replyId)
      .where(sql`${table.replyId} IS NOT NULL AND ${table.kind} = 'visitor-mail'`),
    // Every delivery about a mail (the cascade of a reply's delete reads it, so it covers every kind).
    index('deliveries_about_reply').on(table.replyId).where(isNotNull(table.replyId)),
    // An update's report counts its mails by state from this index alone; each subscriber once.
    uniqueIndex('deliveries_by_update').on(table.updateId, table.subscriberId).where(isNotNull(table.updateId)),
    index('deliveries_update_report')
      .on(table.updateId, table.state, table.attempts)
      .where(isNotNull(table.updateId)),
    index('deliveries_by_subscriber').on(table.subscriberId).where(isNotNull(table.subscriberId)),
    index('deliveries_by_phone').on(table.phoneId, table.sentAt).where(isNotNull(table.phoneId)),
    index('deliveries_by_member').on(table.memberId).where(isNotNull(table.memberId)),
    index('deliveries_by_order_event').on(table.orderEventId).where(isNotNull(table.orderEventId)),
    uniqueIndex('deliveries_receipt_key').on(table.receiptKey).where(isNotNull(table.receiptKey)),
  ],
)

export type DeliveryRow = typeof deliveries.$inferSelect

/**
 * Everyone the owner made the site forget: a salted hash of the address (see
 * app/lifecycle/erasures.server.ts), never the address itself, and when. Kept also in a file
 * beside the backups, so a restored backup is made to forget them again at start.
 */
/**
 * Every mail the farm sent unasked (an acknowledgement, a question about updates) in the last
 * day, by salted hashes of the mailbox and the sender: the caps count these, so deleting a lead
 * or restarting the site gives no one more (drizzle/0017).
 */
export const unaskedMails = sqliteTable(
  'unasked_mails',
  {
    id: integer('id').primaryKey(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }).notNull(),
    mailboxHash: text('mailbox_hash').notNull(),
    senderKey: text('sender_key').notNull(),
  },
  (table) => [
    index('unasked_mails_by_mailbox').on(table.mailboxHash, table.sentAt),
    index('unasked_mails_by_sender').on(table.senderKey, table.sentAt),
    index('unasked_mails_by_time').on(table.sentAt),
  ],
)

export const erasures = sqliteTable(
  'erasures',
  {
  /** Of the address as their submissions are matched: itself, ASCII letters in lower case. */
  addressHash: text('address_hash').primaryKey(),
  /** Of the mailbox it reaches (see mailboxKey), as their subscription is matched. */
  mailboxHash: text('mailbox_hash').notNull(),
  erasedAt: integer('erased_at', { mode: 'timestamp_ms' }).notNull(),
  /** Who of the team made the site forget them; null when re-applied from the list at start. */
  erasedBy: integer('erased_by').references(() => team.id, { onDelete: 'set null' }),
  /** They had unsubscribed from the updates: their mailbox is never asked again. */
  unsubscribed: integer('unsubscribed', { mode: 'boolean' }).notNull().default(false),
  },
  // Before asking anyone about updates: did this mailbox leave them before it was forgotten?
  (table) => [index('erasures_by_mailbox').on(table.mailboxHash)],
)


/**
 * The highest submission id ever given, kept by a trigger when submissions are deleted
 * (drizzle/0014): a new lead's id is above it, so an id deleted is never given again, and a
 * repeated delete, or a card left open in a tab, can never reach another person's lead.
 */
export const highestIds = sqliteTable('highest_ids', {
  tableName: text('table_name').primaryKey(),
  id: integer('id').notNull(),
})

/**
 * Where the reading of the farm's mailbox has got to (IMAP): its UIDVALIDITY and the last UID read.
 * Moved on in the same transaction as what a message did, so no message is acted on twice.
 */
export const mailboxMarks = sqliteTable('mailbox_marks', {
  /** The mailbox as user@host/folder (never its password). */
  mailbox: text('mailbox').primaryKey(),
  uidValidity: integer('uid_validity').notNull(),
  lastUid: integer('last_uid').notNull(),
  changedAt: integer('changed_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * A bounce or a complaint read back from the farm's mailbox, kept as it came (up to 1 MB) so the
 * owner can read it, with the mail it was about and what the remote server said.
 */
export const returnedMails = sqliteTable(
  'returned_mails',
  {
    id: integer('id').primaryKey(),
    kind: text('kind', { enum: returnedKinds }).notNull(),
    /** The farm's mail it returned, when it was found. */
    // Deleted with it: the report quotes the mail, and so what the lead or subscriber wrote.
    deliveryId: integer('delivery_id').references(() => deliveries.id, { onDelete: 'cascade' }),
    updateId: integer('update_id').references(() => updates.id, { onDelete: 'set null' }),
    /** The address it is about, and the mailbox that reaches (see mailboxKey). */
    address: text('address').notNull(),
    addressKey: text('address_key').notNull(),
    /** A permanent failure (5.x.x), or a complaint; a temporary one only counts. */
    permanent: integer('permanent', { mode: 'boolean' }).notNull(),
    status: text('status'),
    words: text('words'),
    source: text('source').notNull(),
    receivedAt: integer('received_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    index('returned_mails_by_address').on(table.addressKey, table.receivedAt),
    index('returned_mails_by_time').on(table.kind, table.receivedAt),
    // One bounce and one complaint a mail: a report sent again (or forged again) adds nothing.
    uniqueIndex('returned_mails_by_delivery').on(table.deliveryId, table.kind).where(isNotNull(table.deliveryId)),
    // An update's report counts its complaints.
    index('returned_mails_by_update').on(table.updateId, table.kind).where(isNotNull(table.updateId)),
  ],
)

export type ReturnedMailRow = typeof returnedMails.$inferSelect

/**
 * Addresses the farm no longer mails unasked (updates, acknowledgements): they bounced for good, or
 * complained. Lifted when the address writes again, or by the owner.
 */
export const mailSuppressions = sqliteTable('mail_suppressions', {
  addressKey: text('address_key').primaryKey(),
  kind: text('kind', { enum: returnedKinds }).notNull(),
  returnedMailId: integer('returned_mail_id').references(() => returnedMails.id, { onDelete: 'set null' }),
  since: integer('since', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * A receiver that could not take anything lately (the mail server down, a phone's push service
 * failing): until when everything for it waits, and how many tries in a row failed, so the next
 * wait doubles. Kept here, not in memory, so a restart does not hurry it; a message it takes
 * deletes it. No one's address is in it: `receiver` is a kind (`update-mail`) or a kind and a
 * phone's number (`push:12`).
 */
export const receiverPauses = sqliteTable('receiver_pauses', {
  receiver: text('receiver').primaryKey(),
  until: integer('until', { mode: 'timestamp_ms' }).notNull(),
  failuresInARow: integer('failures_in_a_row').notNull(),
  /** The first failure of the run: what waits behind it is given up a day after. */
  failingSince: integer('failing_since', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * The home page's words as the owner wrote them (app/farm-page): the `draft` being edited, the
 * `published` one visitors read, and the `previous` published, restored in one step. No row: the spec's texts.
 */
export const farmPage = sqliteTable('farm_page', {
  version: text('version', { enum: ['draft', 'published', 'previous'] }).primaryKey(),
  /** The words as JSON (PageWords), checked again when read. */
  words: text('words').notNull(),
  changedAt: integer('changed_at', { mode: 'timestamp_ms' }).notNull(),
  changedBy: integer('changed_by').references(() => team.id, { onDelete: 'set null' }),
})

/**
 * The farm's photos on the home page, at most 12, in the owner's order. Only what sharp made of
 * each upload is kept (photoFiles): the upload itself, and whatever its metadata said, never is.
 */
export const photos = sqliteTable('photos', {
  id: integer('id').primaryKey(),
  /** The owner's words for whoever cannot see it; required. */
  alt: text('alt').notNull(),
  /** Its place on the page, from 0. */
  position: integer('position').notNull(),
  /** The largest file's size: each width keeps the photo's shape. */
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  addedAt: integer('added_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * Each photo in AVIF, WebP and JPEG at a few widths, named by its bytes' hash: a name never
 * changes what it serves, so browsers keep it for good. In the database, so in every backup.
 */
export const photoFiles = sqliteTable(
  'photo_files',
  {
    /** `<hash>.<avif|webp|jpg>` */
    name: text('name').primaryKey(),
    photoId: integer('photo_id')
      .notNull()
      .references(() => photos.id, { onDelete: 'cascade' }),
    format: text('format', { enum: ['avif', 'webp', 'jpeg'] }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  },
  (table) => [index('photo_files_by_photo').on(table.photoId)],
)

/**
 * This week at the farm: how each product of FARM_PRODUCTS is for sale now, keyed by its name
 * there (one list: the names come from FARM_PRODUCTS, the week's words from here; decision 041).
 */
export const weekList = sqliteTable('week_list', {
  product: text('product').primaryKey(),
  availability: text('availability', { enum: availabilities }).notNull(),
  /** Coming soon: the first day of the week it should be ready, on the farm's calendar (YYYY-MM-DD). */
  readyFrom: text('ready_from'),
  /** In cents of the farm's currency, and what it buys ('a dozen'). */
  priceCents: integer('price_cents'),
  unit: text('unit').notNull().default(''),
  note: text('note').notNull().default(''),
  /**
   * How many are left, counted in `unit` (10 = ten dozen at 'a dozen'); null when the farm does not
   * keep count. A confirmed order takes from it, never below zero; at zero the page says sold out.
   */
  stock: real('stock'),
  changedAt: integer('changed_at', { mode: 'timestamp_ms' }).notNull(),
  changedBy: integer('changed_by').references(() => team.id, { onDelete: 'set null' }),
})

export type WeekListRow = typeof weekList.$inferSelect

/**
 * 'Tell me when it's ready': who asked to be told of which product. They are told only once their
 * address is a confirmed subscriber (the updates' double opt-in); erased with the person.
 */
export const productWaits = sqliteTable(
  'product_waits',
  {
    id: integer('id').primaryKey(),
    product: text('product').notNull(),
    email: text('email').notNull(),
    addressKey: text('address_key').notNull(),
    askedAt: integer('asked_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [uniqueIndex('product_waits_one_per_mailbox').on(table.product, table.addressKey)],
)

/** Who was told a product is ready, in which season (the farm's year): each once a product a season. */
export const productNews = sqliteTable(
  'product_news',
  {
    product: text('product').notNull(),
    season: integer('season').notNull(),
    addressKey: text('address_key').notNull(),
    updateId: integer('update_id').references(() => updates.id, { onDelete: 'set null' }),
    toldAt: integer('told_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.product, table.season, table.addressKey] })],
)

/**
 * An order the team confirmed from a lead's message (issue 49): picked up on `pickUpDate`, on the
 * farm's calendar, between `pickUpFrom` and `pickUpTo` (HH:MM, farm's clock) when said. Gone with
 * its lead, so erased with the person. Two triggers (drizzle/0034): a deleted id is never given
 * again (`highest_ids`), and one still to be picked up gives its stock back when deleted.
 */
export const orders = sqliteTable(
  'orders',
  {
    id: integer('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: orderStatuses }).notNull().default('confirmed'),
    pickUpDate: text('pick_up_date').notNull(),
    pickUpFrom: text('pick_up_from'),
    pickUpTo: text('pick_up_to'),
    /** The lines' sum in cents, as confirmed; null when a line has no price (paid as priced at pick-up). */
    totalCents: integer('total_cents'),
    confirmedAt: integer('confirmed_at', { mode: 'timestamp_ms' }).notNull(),
    confirmedBy: integer('confirmed_by').references(() => team.id, { onDelete: 'set null' }),
    /** When it last changed status, and who of the team did (null: the visitor, or the site). */
    changedAt: integer('changed_at', { mode: 'timestamp_ms' }).notNull(),
    changedBy: integer('changed_by').references(() => team.id, { onDelete: 'set null' }),
  },
  (table) => [
    // The pick-ups page reads a day's or a week's orders by date; the lead's card its own.
    index('orders_by_pick_up').on(table.pickUpDate, table.pickUpFrom),
    index('orders_by_submission').on(table.submissionId),
  ],
)

export type OrderRow = typeof orders.$inferSelect

/** One line of a confirmed order: a product of this week's list, how many in which unit, and its price then. */
export const orderLines = sqliteTable(
  'order_lines',
  {
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** The product's name in FARM_PRODUCTS (the week list's key). */
    product: text('product').notNull(),
    quantity: real('quantity').notNull(),
    /** The unit as the order counts it ('dozen', 'jar', 'kg'; '' for each one). */
    unit: text('unit').notNull().default(''),
    /** How much of the list's stock (in the list's unit) it took; null when none was kept. */
    stockTaken: real('stock_taken'),
    /** The line's price in cents when confirmed; null when the list had none for it. */
    priceCents: integer('price_cents'),
  },
  (table) => [primaryKey({ columns: [table.orderId, table.position] })],
)

export type OrderLineRow = typeof orderLines.$inferSelect

/** What happened to an order, when and by whom: its history, and what the webhook posts (`order.*`). */
export const orderEvents = sqliteTable(
  'order_events',
  {
    id: integer('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    type: text('type', { enum: orderEventTypes }).notNull(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    /** Who of the team; null for the visitor (a cancellation by their link) or the site. */
    by: integer('by').references(() => team.id, { onDelete: 'set null' }),
  },
  (table) => [index('order_events_by_order').on(table.orderId)],
)
