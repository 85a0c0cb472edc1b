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
const imapPart = { section: 'mailbox', lockedBy: 'INBOUND_IMAP_URL', wakes: ['mailbox'] as Wakes[] }

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
  },
  {
    key: 'FARM_PRODUCTS',
    default: defaultFarmProducts,
    kind: 'long-text',
    section: 'farm',
    label: 'Products the inbox looks for',
    hint: 'Comma-separated, or one per line; other names after "=", parted by "|", e.g. "asparagus=sparrowgrass|spears".',
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
  // Mail: the server's parts, which SMTP_URL sets all at once
  { key: 'SMTP_HOST', default: '', kind: 'text', label: 'Mail server', hint: 'Such as smtp.farm.example', ...smtpPart },
  { key: 'SMTP_PORT', default: '', kind: 'whole-number', min: 1, max: 65535, label: 'Port', ...smtpPart },
  { key: 'SMTP_SECURITY', default: '', kind: 'choice', label: 'Security', choices: mailSecurity, ...smtpPart },
  { key: 'SMTP_USER', default: '', kind: 'text', label: 'User name', ...smtpPart },
  { key: 'SMTP_PASSWORD', default: '', kind: 'secret', label: 'Password', ...smtpPart },
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
    hint: 'The address mail is sent from, with a name if you like: Willow Creek Farm <farm@farm.example>. Your first address when empty; visitors see the farm’s name beside it.',
    wakes: sentByMail,
  },
  {
    key: 'DKIM_SELECTOR',
    default: 'farm',
    kind: 'text',
    section: 'mail',
    label: 'DKIM selector',
    hint: 'The name the signing key is published under in the From domain’s DNS, as {selector}._domainkey.',
  },
  // Mail that comes back: the mailbox's parts, which INBOUND_IMAP_URL sets all at once
  {
    key: 'IMAP_HOST',
    default: '',
    kind: 'text',
    label: 'Mailbox server',
    hint: 'Such as imap.farm.example',
    ...imapPart,
  },
  { key: 'IMAP_PORT', default: '', kind: 'whole-number', min: 1, max: 65535, label: 'Port', ...imapPart },
  { key: 'IMAP_SECURITY', default: '', kind: 'choice', label: 'Security', choices: mailboxSecurity, ...imapPart },
  { key: 'IMAP_USER', default: '', kind: 'text', label: 'User name', ...imapPart },
  {
    key: 'IMAP_PASSWORD',
    default: '',
    kind: 'secret',
    label: 'Password',
    hint: 'For your own mailbox, an app password made for the site.',
    ...imapPart,
  },
  { key: 'IMAP_FOLDER', default: '', kind: 'text', label: 'Folder', ...imapPart },
  {
    key: 'INBOUND_MOVE_TO',
    default: '',
    kind: 'text',
    section: 'mailbox',
    label: 'Move what the site handled to',
    hint: 'A folder name, such as Farm site; empty leaves every message where it is.',
    wakes: ['mailbox'],
  },
  // Notifications
  {
    key: 'NOTIFY_DIGEST_AFTER',
    default: '3',
    kind: 'whole-number',
    min: 0,
    max: 1000,
    section: 'notifications',
    label: 'Digest after this many mails',
    hint: 'In one window; 0 sends only digests.',
    wakes: ['owner mail'],
  },
  {
    key: 'NOTIFY_DIGEST_SECONDS',
    default: '600',
    kind: 'whole-number',
    min: 1,
    max: 86_400,
    section: 'notifications',
    label: 'Digest window, in seconds',
    wakes: ['owner mail'],
  },
  // Visitors
  {
    key: 'VISITOR_ACK',
    default: 'false',
    kind: 'yes-no',
    section: 'visitors',
    label: 'Acknowledge each message by mail',
  },
  // Updates and offers
  { key: 'UPDATES', default: 'false', kind: 'yes-no', section: 'updates', label: 'Offer updates to visitors' },
  {
    key: 'UPDATES_PER_MINUTE',
    default: '60',
    kind: 'whole-number',
    min: 1,
    max: 60_000,
    section: 'updates',
    label: 'Update mails per minute, at most',
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
    hint: '"whsec_" and a key in base64, e.g. whsec_ and the output of `openssl rand -base64 32`.',
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
    hint: 'Where each backup is copied, sealed on this machine first: such as https://s3.eu-central-003.backblazeb2.com (Backblaze B2), https://s3.fr-par.scw.cloud (Scaleway) or https://ACCOUNT.r2.cloudflarestorage.com (Cloudflare R2). Empty keeps the backups on this machine only.',
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
] as const satisfies readonly Setting[]

/** The name of an environment variable: every declared setting but the parts a URL sets. */
export type EnvironmentKey = Exclude<(typeof declared)[number], { lockedBy: string }>['key']

/** Every declaration as one type, for code that reads any of them. */
export const settings: readonly Setting[] = declared

export const settingOf = (key: string): Setting | undefined => settings.find((setting) => setting.key === key)

/** What a change of these settings wakes, each once. */
export const wokenBy = (keys: string[]): Set<Wakes> => new Set(keys.flatMap((key) => settingOf(key)?.wakes ?? []))
