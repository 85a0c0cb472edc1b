import type { DeliveryKind } from '#app/data/enums'
import { defaultFarmProducts } from '#app/analysis/products'

/**
 * Every setting the site has, each declared once: its environment variable's name, default, kind
 * and limits, and (for those the settings page shows) its section, label and hint. The reading of
 * the environment at start (server/config.ts), the settings page's fields and the API's checks
 * (fields.ts, settings.server.ts), the README's configuration table (a test holds it) and what a
 * change wakes (server/services.ts) are all made from this list.
 */
export type SettingKind = 'text' | 'long-text' | 'whole-number' | 'yes-no' | 'choice' | 'secret'

/** What a change of the setting wakes: a part of the site told at once, or a kind of delivery whose failed tries are due again. */
export type Wakes = 'farm name' | 'farm clock' | 'products' | 'owner mail' | 'mailbox' | 'backups' | DeliveryKind

export interface Setting {
  key: string
  /** Unset, the site reads this. */
  default: string
  kind: SettingKind
  /** A whole number's least and most. */
  min?: number
  max?: number
  /** On the settings page: its section, and the words beside its field. */
  section?: string
  label?: string
  hint?: string
  choices?: ReadonlyArray<{ value: string; label: string }>
  /** The environment variable that, when set, sets this field too (SMTP_URL sets the mail server's parts). */
  lockedBy?: string
  /** Within its section, the fields it is shown with under one heading (the mailbox's account, sending, reading). */
  group?: string
  /** On the page, the field it follows: one user name and password for both halves of the mailbox. */
  sameAs?: string
  wakes?: readonly Wakes[]
}

export const mailSecurity = [
  { value: 'starttls', label: 'STARTTLS (port 587)' },
  { value: 'tls', label: 'TLS (port 465)' },
  { value: 'offered', label: 'As the server offers (a local relay)' },
]

export const mailboxSecurity = [
  { value: 'tls', label: 'TLS (port 993)' },
  { value: 'starttls', label: 'STARTTLS (port 143)' },
]

/** Chrome's, Firefox's, Safari's and Edge's push services. */
const defaultPushHosts = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
  '*.notify.windows.com',
]

/** Mail goes out through these: a change makes what failed with the old ones due now. */
const sentByMail: Wakes[] = ['owner mail', 'owner-mail', 'visitor-mail', 'update-mail']
const smtpPart = { section: 'mail', lockedBy: 'SMTP_URL', wakes: sentByMail }
const imapPart = { section: 'mail', lockedBy: 'INBOUND_IMAP_URL', wakes: ['mailbox'] as Wakes[] }

export const declared = [
  // The farm
  {
    key: 'FARM_NAME',
    default: 'Willow Creek Farm',
    kind: 'text',
    section: 'farm',
    label: 'Farm name',
    wakes: ['farm name'],
  },
  {
    key: 'FARM_PRODUCT',
    default: 'Seasonal Produce',
    kind: 'text',
    section: 'farm',
    label: 'What the farm sells, in a few words',
    hint: 'Shown with the farm’s name to visitors.',
  },
  {
    key: 'FARM_PRODUCTS',
    default: defaultFarmProducts,
    kind: 'long-text',
    section: 'farm',
    label: 'Products (the inbox’s and this week’s list)',
    hint: 'One per line or comma-separated; other names after "=", parted by "|": asparagus=sparrowgrass|spears.',
    wakes: ['products'],
  },
  {
    key: 'PUBLIC_URL',
    default: '',
    kind: 'text',
    section: 'farm',
    label: 'The site’s public address',
    hint: 'Such as https://farm.example. Links in mails (confirm, unsubscribe, a lead) start with it.',
    wakes: ['push'],
  },
  {
    key: 'FARM_TIME_ZONE',
    default: '',
    kind: 'text',
    section: 'farm',
    label: 'The farm’s time zone',
    hint: 'Such as Europe/London or Pacific/Auckland. Every time and week the site shows you is on its clock. Empty: UTC, until someone signs in from a browser, whose own zone is then taken.',
    wakes: ['farm clock'],
  },
  {
    key: 'FARM_LANGUAGES',
    default: 'en',
    kind: 'text',
    section: 'farm',
    label: 'The farm’s languages',
    hint: 'Codes parted by commas, the farm’s own first: en, fr, de, es, it, nl or pt (a farm in Belgium: fr, nl). Visitors read the home page in them; the first is at /, each other at its own address (/nl/).',
  },
  // Mail: the farm's one mailbox, which sends (its SMTP parts, which SMTP_URL sets all at once) and
  // reads (its IMAP parts, which INBOUND_IMAP_URL sets all at once) with the same account
  {
    key: 'SMTP_USER',
    default: '',
    kind: 'text',
    label: 'Your mail address or user name',
    hint: 'The one you sign in to your mail with: the site sends and reads with it.',
    group: 'account',
    ...smtpPart,
  },
  {
    key: 'SMTP_PASSWORD',
    default: '',
    kind: 'secret',
    label: 'Password',
    hint: 'Best an app password made for the site, where your provider makes them.',
    group: 'account',
    ...smtpPart,
  },
  {
    key: 'SMTP_HOST',
    default: '',
    kind: 'text',
    label: 'Server',
    hint: 'Such as smtp.farm.example',
    group: 'sending',
    ...smtpPart,
  },
  {
    key: 'SMTP_PORT',
    default: '',
    kind: 'whole-number',
    min: 1,
    max: 65535,
    label: 'Port',
    group: 'sending',
    ...smtpPart,
  },
  {
    key: 'SMTP_SECURITY',
    default: '',
    kind: 'choice',
    label: 'Security',
    choices: mailSecurity,
    group: 'sending',
    ...smtpPart,
  },
  {
    key: 'IMAP_HOST',
    default: '',
    kind: 'text',
    label: 'Server',
    hint: 'Such as imap.farm.example. Empty: answers and bounces stay in your mail program, unseen here.',
    group: 'reading',
    ...imapPart,
  },
  {
    key: 'IMAP_PORT',
    default: '',
    kind: 'whole-number',
    min: 1,
    max: 65535,
    label: 'Port',
    group: 'reading',
    ...imapPart,
  },
  {
    key: 'IMAP_SECURITY',
    default: '',
    kind: 'choice',
    label: 'Security',
    choices: mailboxSecurity,
    group: 'reading',
    ...imapPart,
  },
  // The account's user name and password read too: on the page they follow the two above, unless
  // only one half is set where the site runs.
  {
    key: 'IMAP_USER',
    default: '',
    kind: 'text',
    label: 'User name',
    group: 'reading',
    sameAs: 'SMTP_USER',
    ...imapPart,
  },
  {
    key: 'IMAP_PASSWORD',
    default: '',
    kind: 'secret',
    label: 'Password',
    group: 'reading',
    sameAs: 'SMTP_PASSWORD',
    ...imapPart,
  },
  {
    key: 'IMAP_FOLDER',
    default: '',
    kind: 'text',
    label: 'Folder',
    hint: 'Where new mail arrives: INBOX unless your mail is sorted elsewhere first.',
    group: 'reading',
    ...imapPart,
  },
  {
    key: 'INBOUND_MOVE_TO',
    default: '',
    kind: 'text',
    section: 'mail',
    label: 'Move what the site handled to',
    hint: 'A folder name, such as Farm site; empty leaves every message where it is.',
    group: 'reading',
    wakes: ['mailbox'],
  },
  {
    key: 'NOTIFY_EMAIL',
    default: '',
    kind: 'text',
    section: 'mail',
    label: 'Your addresses',
    hint: 'Where the site mails you about leads; several comma-separated. Answers from visitors come back to the first.',
    wakes: [...sentByMail, 'push'],
  },
  {
    key: 'NOTIFY_FROM',
    default: '',
    kind: 'text',
    section: 'mail',
    label: 'From',
    hint: 'The address visitors see mail come from, beside the farm’s name; your first address when empty.',
    wakes: sentByMail,
  },
  // Notifications
  {
    key: 'NOTIFY_DIGEST_AFTER',
    default: '3',
    kind: 'whole-number',
    min: 0,
    max: 1000,
    section: 'notifications',
    label: 'One digest mail after this many',
    hint: 'When more leads than this come within the digest window (Advanced), the rest come in one mail; 0 sends only digests.',
    wakes: ['owner mail'],
  },
  // Updates and offers
  {
    key: 'UPDATES',
    default: 'false',
    kind: 'yes-no',
    section: 'updates',
    label: 'Offer updates to visitors',
    hint: 'Visitors who say yes, and confirm by mail, get your news and offers; each mail has a one-click unsubscribe.',
  },
  {
    key: 'UPDATES_PER_MINUTE',
    default: '60',
    kind: 'whole-number',
    min: 1,
    max: 60_000,
    section: 'updates',
    label: 'Update mails per minute, at most',
    hint: 'Keeps within how fast your mail provider lets you send.',
  },
  // Visitors: the thank-you mail, beside the updates they get by mail too
  {
    key: 'VISITOR_ACK',
    default: 'false',
    kind: 'yes-no',
    section: 'updates',
    label: 'Thank each visitor by mail',
    hint: 'When their message is kept (never for spam), with the text below.',
  },
  // Orders: what a visitor may do with an order the team confirmed (issue 49)
  {
    key: 'ORDER_CANCEL_HOURS',
    default: '6',
    kind: 'whole-number',
    min: 0,
    max: 336,
    section: 'orders',
    label: 'Visitors may cancel an order until this many hours before its pick-up day',
    hint: '6: until 18:00 the day before, on the farm’s clock; 0: until midnight as the day begins. After it, their order’s page says how to reach you.',
  },
  {
    key: 'ORDER_REMINDERS',
    default: 'false',
    kind: 'yes-no',
    section: 'orders',
    label: 'Remind each visitor by mail the day before their pick-up',
    hint: 'One mail an order, with what they ordered, when, and their order’s link.',
  },
  // Webhook
  {
    key: 'WEBHOOK_URL',
    default: '',
    kind: 'text',
    section: 'webhook',
    label: 'Address',
    hint: 'Such as https://n8n.farm.example/webhook/leads',
    wakes: ['webhook-post'],
  },
  {
    key: 'WEBHOOK_SECRET',
    default: '',
    kind: 'secret',
    section: 'webhook',
    label: 'Signing secret',
    hint: 'The secret the other tool shows you, starting whsec_: each post is signed with it.',
    wakes: ['webhook-post'],
  },
  {
    key: 'WEBHOOK_INCLUDE_SPAM',
    default: 'false',
    kind: 'yes-no',
    section: 'webhook',
    label: 'Post suspected spam too',
    wakes: ['webhook-post'],
  },
  // Backups
  {
    key: 'BACKUP_EVERY_MINUTES',
    default: '1440',
    kind: 'whole-number',
    min: 1,
    max: 10_080,
    section: 'backups',
    label: 'A backup every, in minutes',
    hint: '1440 is once a day.',
    wakes: ['backups'],
  },
  {
    key: 'BACKUP_KEEP',
    default: '14',
    kind: 'whole-number',
    min: 1,
    max: 1000,
    section: 'backups',
    label: 'Backups to keep',
    wakes: ['backups'],
  },
  // Backups' copies in a bucket, sealed on this machine first
  {
    key: 'BACKUP_BUCKET_ENDPOINT',
    default: '',
    kind: 'text',
    section: 'backups',
    label: 'Bucket’s address (S3 endpoint)',
    hint: 'Its S3 address, such as https://s3.eu-central-003.backblazeb2.com (Backblaze B2) or https://s3.fr-par.scw.cloud (Scaleway); empty keeps the backups here only.',
    wakes: ['backups'],
  },
  { key: 'BACKUP_BUCKET', default: '', kind: 'text', section: 'backups', label: 'Bucket name', wakes: ['backups'] },
  {
    key: 'BACKUP_BUCKET_REGION',
    default: '',
    kind: 'text',
    section: 'backups',
    label: 'Region',
    hint: 'Empty: the one in the address (us-east-1 when it names none; auto for R2).',
    wakes: ['backups'],
  },
  {
    key: 'BACKUP_BUCKET_ACCESS_KEY',
    default: '',
    kind: 'text',
    section: 'backups',
    label: 'Key ID',
    hint: 'The access key’s ID the provider gave you for this bucket (keyID, access key).',
    wakes: ['backups'],
  },
  {
    key: 'BACKUP_BUCKET_SECRET',
    default: '',
    kind: 'secret',
    section: 'backups',
    label: 'Secret key',
    hint: 'The access key’s secret (applicationKey, secret key).',
    wakes: ['backups'],
  },
  // Retention
  {
    key: 'SPAM_RETENTION_DAYS',
    default: '30',
    kind: 'whole-number',
    min: 1,
    max: 3650,
    section: 'retention',
    label: 'Suspected spam, days',
    hint: 'Then it is deleted for good.',
  },
  {
    key: 'HANDLED_RETENTION_DAYS',
    default: '',
    kind: 'whole-number',
    min: 1,
    max: 36_500,
    section: 'retention',
    label: 'Handled messages, days',
    hint: 'Empty keeps them for good.',
  },
  {
    key: 'ACTIVITY_DAYS',
    default: '365',
    kind: 'whole-number',
    min: 1,
    max: 3650,
    section: 'retention',
    label: 'The activity log, days',
    hint: 'What was done, by whom and when, as the Activity page shows it.',
  },
  // The digest's window, seldom changed
  {
    key: 'NOTIFY_DIGEST_SECONDS',
    default: '600',
    kind: 'whole-number',
    min: 1,
    max: 86_400,
    section: 'digest',
    label: 'Digest window, in seconds',
    hint: 'How long leads are counted for a digest: 600 is ten minutes.',
    wakes: ['owner mail'],
  },
  // Signing the farm's mail (DKIM)
  {
    key: 'DKIM_SELECTOR',
    default: 'farm',
    kind: 'text',
    section: 'dkim',
    label: 'Name of the signing key',
    hint: 'The key is published in the From domain’s DNS under this name; Mail that lands shows the record.',
  },
  // Phone
  {
    key: 'VAPID_SUBJECT',
    default: '',
    kind: 'text',
    section: 'phone',
    label: 'Contact for push services',
    hint: 'mailto: and an address, or an https address; your first address when empty.',
    wakes: ['push'],
  },
  // Only in the environment
  { key: 'PORT', default: '3000', kind: 'whole-number', min: 0, max: 65535 },
  { key: 'HOST', default: '0.0.0.0', kind: 'text' },
  { key: 'DATABASE_PATH', default: './data/farm.db', kind: 'text' },
  { key: 'OWNER_PASSWORD', default: '', kind: 'secret' },
  { key: 'SESSION_SECRET', default: '', kind: 'secret' },
  { key: 'ALLOWED_ORIGINS', default: '', kind: 'text' },
  { key: 'ALLOWED_HOSTS', default: '', kind: 'text' },
  { key: 'TRUST_PROXY', default: '', kind: 'text' },
  { key: 'SUBMISSION_RATE_LIMIT', default: '10', kind: 'whole-number', min: 1, max: 1_000_000 },
  { key: 'LIVE_MAX_SOCKETS', default: '2000', kind: 'whole-number', min: 1, max: 100_000 },
  { key: 'LIVE_MAX_SOCKETS_PER_ADDRESS', default: '20', kind: 'whole-number', min: 1, max: 100_000 },
  { key: 'HSTS_INCLUDE_SUBDOMAINS', default: 'false', kind: 'yes-no' },
  { key: 'MIN_FILL_SECONDS', default: '3', kind: 'whole-number', min: 0, max: 600 },
  { key: 'AI_API_URL', default: '', kind: 'text' },
  { key: 'AI_MODEL', default: 'llama3.2', kind: 'text' },
  { key: 'AI_API_KEY', default: '', kind: 'secret' },
  // The visitor waits for the model, so its wait is capped.
  { key: 'AI_TIMEOUT_MS', default: '5000', kind: 'whole-number', min: 1, max: 30_000 },
  { key: 'ANALYSIS_TIMEOUT_MS', default: '1500', kind: 'whole-number', min: 1, max: 30_000 },
  { key: 'BACKUP_DIR', default: '', kind: 'text' },
  { key: 'BACKUP_BUCKET_KEY', default: '', kind: 'secret' },
  { key: 'EXPORTS_AT_ONCE', default: '2', kind: 'whole-number', min: 1, max: 100 },
  { key: 'SMTP_URL', default: '', kind: 'secret' },
  { key: 'DKIM_PRIVATE_KEY', default: '', kind: 'secret' },
  { key: 'DNS_SERVERS', default: '', kind: 'text' },
  { key: 'NOTIFY_RETRY_SECONDS', default: '30', kind: 'whole-number', min: 1, max: 3600 },
  { key: 'REPLY_RATE_LIMIT', default: '30', kind: 'whole-number', min: 1, max: 10_000 },
  { key: 'INBOUND_IMAP_URL', default: '', kind: 'secret' },
  { key: 'PUSH_HOSTS', default: defaultPushHosts.join(','), kind: 'text' },
  { key: 'VAPID_PUBLIC_KEY', default: '', kind: 'text' },
  { key: 'VAPID_PRIVATE_KEY', default: '', kind: 'secret' },
  { key: 'LOG_LEVEL', default: 'info', kind: 'text' },
  // Tests only: offers the tests' own Postfix and Dovecot as a provider on the settings page.
  { key: 'TEST_MAIL_PROVIDER', default: '', kind: 'text' },
] as const satisfies readonly Setting[]

/** The name of an environment variable: every declared setting but the parts a URL sets. */
export type EnvironmentKey = Exclude<(typeof declared)[number], { lockedBy: string }>['key']

/** Every declaration as one type, for code that reads any of them. */
export const settings: readonly Setting[] = declared

export const settingOf = (key: string): Setting | undefined => settings.find((setting) => setting.key === key)

/** What a change of these settings wakes, each once. */
export const wokenBy = (keys: string[]): Set<Wakes> => new Set(keys.flatMap((key) => settingOf(key)?.wakes ?? []))
