import { createPrivateKey } from 'node:crypto'
import { isIP } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { LlmSettings } from '#app/analysis/llm.server'
import type { OwnerMailSettings } from '#app/owner-mail/owner-mail-sender.server'
import type { WebhookSettings } from '#app/webhook/webhook.server'
import { mailboxOf, type MailboxSettings } from '#app/mail-back/mailbox.server'
import { vapidKeysError, type VapidKeys } from '#app/push/vapid.server'
import { readProductList, type Product } from '#app/analysis/products'
import { settingOf, settings, type EnvironmentKey, type Setting } from '#app/settings/declared'
import { hasAddressShape } from '#app/leads/mailbox'
import { testProvider, type MailProvider } from '#app/settings/mail-providers'
import { servers } from '#app/settings/servers-in-parts'
import { regionOf, type BucketSettings } from '#app/lifecycle/bucket.server'
import { readKeyText } from '#app/lifecycle/sealed-copy.server'
import { knownTimeZone } from '#app/clock/time-zone'
import { isLanguage, languages, type Language } from '#app/language/languages'

type Environment = Record<string, string | undefined>

/** The mail settings as read: NOTIFY_FROM's name only when it has one (each sender falls back to the farm's). */
type MailSettings = Omit<OwnerMailSettings, 'fromName' | 'timeZone'> & { fromName: string | null }

export const logLevels = ['debug', 'info', 'warn', 'error'] as const

export interface Config {
  mode: 'production' | 'development'
  logLevel: (typeof logLevels)[number]
  /** In development, the Remix dev server's live-reload address, which the content-security policy lets the page reach. */
  devServerOrigin: string | null
  port: number
  host: string
  databasePath: string
  migrationsFolder: string
  farmName: string
  farmProduct: string
  /** The farm's clock (FARM_TIME_ZONE), an IANA name; null while none is chosen, and the site's clock is UTC. */
  farmTimeZone: string | null
  /** FARM_LANGUAGES: the languages visitors read the farm in, its own first. */
  farmLanguages: Language[]
  /** Origins besides the site's own that may post forms and open the live link. */
  allowedOrigins: string[]
  /** Host names the site answers to besides IP addresses and localhost: PUBLIC_URL's and ALLOWED_HOSTS. */
  siteHosts: string[]
  /** Express's `trust proxy`: false unless TRUST_PROXY is set. */
  trustProxy: boolean | number | string
  submissionsPerMinute: number
  /** Live sockets open at once, in all and from one address. */
  liveMaxSockets: number
  liveMaxSocketsPerAddress: number
  /** Whether HSTS also covers every subdomain of the site's host. */
  hstsIncludeSubDomains: boolean
  minFillSeconds: number
  ownerPassword: string | undefined
  sessionSecret: string | undefined
  /** What the analysis looks for in messages. */
  farmProducts: Product[]
  /** CSV downloads one owner may have running at once. */
  exportsAtOnce: number
  /** Spam older than this many days is deleted, at start and daily. */
  spamRetentionDays: number
  /** Handled submissions older than this many days are deleted, at start and daily; null keeps them for good. */
  handledRetentionDays: number | null
  /** How long the activity log keeps what was done, in days. */
  activityDays: number
  /**
   * Where backups are written, how often, and how many of the newest are kept; the bucket each is
   * copied to, sealed (null: none), and the key it is sealed with when the environment sets it.
   */
  backups: { dir: string; everyMs: number; keep: number; bucket: BucketSettings | null; sealKey: Buffer | null }
  /** How long the offline reading of one message may take before it is stored without one. */
  analysisTimeoutMs: number
  /** Null unless AI_API_URL is set: then messages are read by that language model first. */
  llm: LlmSettings | null
  /** Null unless SMTP_URL and NOTIFY_EMAIL are both set: then the owner is mailed about each lead. */
  notify: MailSettings | null
  /** Whether a clean lead's visitor is mailed the owner's acknowledgement (VISITOR_ACK); only with `notify`. */
  visitorAck: boolean
  /** Orders: a visitor may cancel until this many hours before the pick-up day (ORDER_CANCEL_HOURS); the day-before reminder (ORDER_REMINDERS). */
  orders: { cancelHoursBefore: number; reminders: boolean }
  /** The first retry's wait of every delivery (NOTIFY_RETRY_SECONDS), each next one twice as long. */
  retryBaseMs: number
  /** Replies one owner may send in a minute. */
  repliesPerMinute: number
  /** Null unless UPDATES=true: then clean leads are asked to confirm, and the owner sends updates this fast. */
  updates: { perMinute: number; publicUrl: string } | null
  /** Null unless WEBHOOK_URL is set: then each lead is posted there, signed with WEBHOOK_SECRET. */
  webhook: WebhookSettings | null
  /** Null unless INBOUND_IMAP_URL is set: then the farm's mailbox is read for answers, bounces and complaints. */
  mailbox: MailboxSettings | null
  /** Tests only (TEST_MAIL_PROVIDER): their own mail server, offered as a provider on the settings page. */
  testMailProvider: MailProvider | null
  /** The DNS servers the mail set-up's checks ask (DNS_SERVERS); empty: the system's. */
  dnsServers: string[]
  /** DKIM: the selector the key is published under, and the key when set by hand (else made and kept). */
  dkim: { selector: string; privateKey: string | null }
  /** Web Push to the owner's phones (only ever with OWNER_PASSWORD, see services). */
  push: { hosts: string[]; keys: VapidKeys | null; subject: string | null; siteUrl: string | null }
}

/** Every environment variable's default, as declared (app/settings/declared.ts); the README lists the same. */
export const defaults = Object.fromEntries(
  settings.filter((setting) => !setting.lockedBy).map((setting) => [setting.key, setting.default]),
) as Record<EnvironmentKey, string>

function declaration(key: string): Setting {
  const setting = settingOf(key)
  if (!setting) throw new Error(`${key} is not a declared setting`)
  return setting
}

function text(env: Environment, key: string): string {
  const value = env[key]?.trim()
  return value ? value : declaration(key).default
}

/** A whole number within its declared limits. */
function wholeNumber(env: Environment, key: string): number {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = declaration(key)
  const value = Number(text(env, key))
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${key} must be a whole number from ${min} to ${max}, not "${env[key]}"`)
  }
  return value
}

function yesOrNo(env: Environment, key: string): boolean {
  const value = text(env, key)
  if (value !== 'true' && value !== 'false') throw new Error(`${key} must be true or false, not "${env[key]}"`)
  return value === 'true'
}

function origins(env: Environment): string[] {
  return text(env, 'ALLOWED_ORIGINS')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((origin) => {
      let url: URL
      try {
        url = new URL(origin)
      } catch {
        throw new Error(`ALLOWED_ORIGINS holds "${origin}", which is not an origin such as https://farm.example`)
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new Error(`ALLOWED_ORIGINS holds "${origin}", which is not http or https`)
      }
      return url.origin
    })
}

const hostName = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/

function siteHosts(env: Environment): string[] {
  const named = text(env, 'ALLOWED_HOSTS')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean)
  for (const host of named) {
    if (!hostName.test(host))
      throw new Error(`ALLOWED_HOSTS holds "${host}", which is not a host name such as farm.example`)
  }
  const publicUrl = text(env, 'PUBLIC_URL')
  const ownName = /^https?:\/\/(?:[^/@]*@)?([^/:]+)/i.exec(publicUrl)?.[1]?.toLowerCase().replace(/\.$/, '')
  return [...new Set([...(ownName ? [ownName] : []), ...named])]
}

function trustProxy(env: Environment): Config['trustProxy'] {
  const value = text(env, 'TRUST_PROXY')
  if (value === '' || value === 'false') return false
  if (value === 'true') return 1
  if (/^\d+$/.test(value)) return Number(value)
  return value
}

function secret(env: Environment, key: string): string | undefined {
  return env[key] ? env[key] : undefined
}

/**
 * Takes a chat-completions URL as it is, or a base URL as OpenAI's clients
 * take it ("http://localhost:11434/v1") and adds the path.
 */
function chatCompletionsUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error('AI_API_URL must be an http:// or https:// URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('AI_API_URL must be an http:// or https:// URL')
  }
  if (!url.pathname.endsWith('/chat/completions')) {
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`
  }
  return url.href
}

function readLlm(env: Environment): LlmSettings | null {
  const url = text(env, 'AI_API_URL')
  if (!url) return null
  const timeoutMs = Number(text(env, 'AI_TIMEOUT_MS'))
  const { min, max } = declaration('AI_TIMEOUT_MS')
  if (!Number.isInteger(timeoutMs) || timeoutMs < min! || timeoutMs > max!) {
    throw new Error(
      `AI_TIMEOUT_MS must be a whole number of milliseconds from ${min} to ${max}, not "${env.AI_TIMEOUT_MS}"`,
    )
  }
  const apiKey = text(env, 'AI_API_KEY')
  return {
    endpoint: chatCompletionsUrl(url),
    model: text(env, 'AI_MODEL'),
    ...(apiKey ? { apiKey } : {}),
    timeoutMs,
  }
}

function readTimeZone(env: Environment): string | null {
  const name = text(env, 'FARM_TIME_ZONE')
  if (!name) return null
  const zone = knownTimeZone(name)
  if (!zone) {
    throw new Error(
      `FARM_TIME_ZONE must be a time zone as computers name them, such as Europe/London or Pacific/Auckland, not "${name.slice(0, 64)}"`,
    )
  }
  return zone
}

function readLanguages(env: Environment): Language[] {
  const typed = text(env, 'FARM_LANGUAGES')
  const codes = typed.split(',').map((code) => code.trim())
  const unknown = codes.find((code) => !isLanguage(code))
  if (unknown !== undefined) {
    throw new Error(
      `FARM_LANGUAGES must be language codes parted by commas, the farm's own first, from ${languages.join(', ')}, not "${unknown.slice(0, 64)}"`,
    )
  }
  if (new Set(codes).size < codes.length) throw new Error('FARM_LANGUAGES names a language twice')
  return codes as Language[]
}

function readProducts(env: Environment): Product[] {
  try {
    return readProductList(text(env, 'FARM_PRODUCTS'))
  } catch (error) {
    throw new Error(`FARM_PRODUCTS: ${(error as Error).message}`)
  }
}

/**
 * NOTIFY_FROM: an address, or a name and an address as RFC 5322 writes them (`Willow Creek Farm
 * <farm@farm.example>`, the name quoted when it holds a comma). One line: a line break could
 * start a header of its own.
 */
function readSender(env: Environment): { address: string; name: string | null } | null {
  const value = env.NOTIFY_FROM ?? ''
  if (/[\r\n]/.test(value)) throw new Error('NOTIFY_FROM must be one line: a name and an address, or an address')
  const from = value.trim()
  if (!from) return null
  const named = /^(?:"((?:[^"\\]|\\.)*)"|([^<>"]*?))\s*<([^<>\s]+)>$/.exec(from)
  const address = named ? named[3]! : from
  const name = named ? (named[1]?.replace(/\\(.)/g, '$1') ?? named[2] ?? '').trim() : ''
  if (address.includes(',')) throw new Error('NOTIFY_FROM must be one email address')
  if (!hasAddressShape(address)) throw new Error(`NOTIFY_FROM holds "${address}", which is not an email address`)
  if (/[\u0000-\u001f\u007f]/.test(name) || name.length > 100) {
    throw new Error('NOTIFY_FROM’s name must be printable, at most 100 characters')
  }
  return { address, name: name || null }
}

function mailAddresses(env: Environment, key: 'NOTIFY_EMAIL'): string[] {
  const addresses = text(env, key)
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean)
  for (const address of addresses) {
    if (!hasAddressShape(address)) throw new Error(`${key} holds "${address}", which is not an email address`)
  }
  return addresses
}

function readNotify(env: Environment): MailSettings | null {
  const smtpUrl = text(env, 'SMTP_URL')
  const to = mailAddresses(env, 'NOTIFY_EMAIL')
  const from = readSender(env)
  if (!smtpUrl || to.length === 0) return null
  let url: URL
  try {
    url = new URL(smtpUrl)
  } catch {
    // The value may hold a password, so it is not repeated here.
    throw new Error('SMTP_URL must be an address such as smtp://user:password@mail.example:587')
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    throw new Error('SMTP_URL must start with smtp:// or smtps:// and name a host')
  }
  return {
    smtpUrl,
    to,
    from: from?.address ?? to[0]!,
    fromName: from?.name ?? null,
    digestAfter: wholeNumber(env, 'NOTIFY_DIGEST_AFTER'),
    digestWindowMs: wholeNumber(env, 'NOTIFY_DIGEST_SECONDS') * 1000,
    publicUrl: readPublicUrl(env),
  }
}

/** The first retry's wait (NOTIFY_RETRY_SECONDS), shared by the mail, the webhook and the pushes. */
function retryBaseMs(env: Environment): number {
  return wholeNumber(env, 'NOTIFY_RETRY_SECONDS') * 1000
}

/** PUBLIC_URL without its trailing slash, or null when unset. */
function readPublicUrl(env: Environment): string | null {
  const publicUrl = text(env, 'PUBLIC_URL')
  if (publicUrl && !/^https?:\/\/[^/]+/.test(publicUrl)) {
    throw new Error(`PUBLIC_URL must be the site's http:// or https:// address, not "${publicUrl}"`)
  }
  return publicUrl ? publicUrl.replace(/\/+$/, '') : null
}

/** What web-push takes as a VAPID subject: a mailto: address, or an https: address it can read. */
function isVapidSubject(subject: string): boolean {
  if (/^mailto:/.test(subject)) return hasAddressShape(subject.slice('mailto:'.length))
  try {
    return new URL(subject).protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * Web Push: the push services' hosts it may post to (PUSH_HOSTS), the VAPID keys when set by hand
 * (else made at first start and kept in the database), and the subject push services may write
 * to: VAPID_SUBJECT, else mailto: the first NOTIFY_EMAIL, else an https PUBLIC_URL (null: none).
 */
function readPush(env: Environment): Config['push'] {
  const hosts = text(env, 'PUSH_HOSTS')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean)
  // A host, host:port, or *. and a domain of two labels at least (never *.com).
  const entry = /^(?:\*\.[a-z0-9-]+(?:\.[a-z0-9-]+)+|[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::[1-9]\d{0,4})?$/
  for (const host of hosts) {
    if (!entry.test(host) || Number(host.split(':')[1] ?? 443) > 65535) {
      throw new Error(
        `PUSH_HOSTS holds "${host}": each entry is a host, host:port or *.domain.example, comma-separated`,
      )
    }
  }
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() ?? ''
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() ?? ''
  if (Boolean(publicKey) !== Boolean(privateKey)) {
    throw new Error('Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither (then a pair is made and kept)')
  }
  const keys = publicKey ? { publicKey, privateKey } : null
  const wrong = keys && vapidKeysError(keys)
  if (wrong) throw new Error(wrong)
  const subject = text(env, 'VAPID_SUBJECT')
  if (subject && !isVapidSubject(subject)) {
    throw new Error(`VAPID_SUBJECT must be a mailto: or https: address, not "${subject}"`)
  }
  const ownerMail = mailAddresses(env, 'NOTIFY_EMAIL')[0]
  const site = readPublicUrl(env)
  return {
    hosts,
    keys,
    subject: subject || (ownerMail ? `mailto:${ownerMail}` : site && isVapidSubject(site) ? site : null),
    siteUrl: site,
  }
}

const dnsLabels = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i

function readDkim(env: Environment): Config['dkim'] {
  const selector = text(env, 'DKIM_SELECTOR')
  if (!dnsLabels.test(selector)) {
    throw new Error(`DKIM_SELECTOR must be a DNS name such as farm or farm2026, not "${selector.slice(0, 64)}"`)
  }
  // A key pasted into one line keeps its line breaks as \n.
  const pem = (env.DKIM_PRIVATE_KEY ?? '').trim().replace(/\\n/g, '\n')
  if (!pem) return { selector, privateKey: null }
  let type: string | undefined
  try {
    type = createPrivateKey(pem).asymmetricKeyType
  } catch {
    type = undefined
  }
  // The key itself is never repeated here.
  if (type !== 'rsa')
    throw new Error('DKIM_PRIVATE_KEY must be an RSA private key in PEM (-----BEGIN PRIVATE KEY-----)')
  return { selector, privateKey: pem }
}

/**
 * TEST_MAIL_PROVIDER: an smtp:// and an imap(s):// address, parted by a space, without user or
 * password; the settings page then offers them as one more provider, for the tests to pick.
 */
function readTestMailProvider(env: Environment): MailProvider | null {
  const value = text(env, 'TEST_MAIL_PROVIDER')
  if (!value) return null
  const [sending, reading, ...rest] = value.split(/\s+/)
  const [smtp, imap] = servers
  const partsOf = (server: typeof smtp, url: string | undefined) => {
    const scheme = server === smtp ? /^smtps?:\/\// : /^imaps?:\/\//
    if (!url || !scheme.test(url) || !URL.canParse(url) || new URL(url).username) return null
    return server!.partsOf(new URL(url))
  }
  const sends = partsOf(smtp, sending)
  const reads = partsOf(imap, reading)
  if (!sends || !reads || rest.length > 0) {
    throw new Error(
      'TEST_MAIL_PROVIDER must be an smtp:// and an imaps:// address without a password, parted by a space',
    )
  }
  const [sendingHost, sendingPort, sendingSecurity] = ['SMTP_HOST', 'SMTP_PORT', 'SMTP_SECURITY'].map(
    (key) => sends[key] ?? '',
  )
  const [readingHost, readingPort, readingSecurity] = ['IMAP_HOST', 'IMAP_PORT', 'IMAP_SECURITY'].map(
    (key) => reads[key] ?? '',
  )
  return testProvider({
    sending: { host: sendingHost!, port: sendingPort!, security: sendingSecurity! },
    reading: { host: readingHost!, port: readingPort!, security: readingSecurity! },
  })
}

function readDnsServers(env: Environment): string[] {
  const servers = text(env, 'DNS_SERVERS')
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean)
  for (const server of servers) {
    const address = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(server)?.[1] ?? server.replace(/:\d{1,5}$/, '')
    if (!isIP(address)) {
      throw new Error(`DNS_SERVERS holds "${server.slice(0, 60)}": each entry is an IP address, with :port if not 53`)
    }
  }
  return servers
}

function readLogLevel(env: Environment): Config['logLevel'] {
  const level = text(env, 'LOG_LEVEL').toLowerCase()
  const known = logLevels.find((name) => name === level)
  if (!known) throw new Error(`LOG_LEVEL must be one of ${logLevels.join(', ')}, not "${level}"`)
  return known
}

function readUpdates(env: Environment, notify: MailSettings | null): Config['updates'] {
  const perMinute = wholeNumber(env, 'UPDATES_PER_MINUTE')
  if (!yesOrNo(env, 'UPDATES')) return null
  if (!notify) throw new Error('UPDATES=true needs SMTP_URL and NOTIFY_EMAIL: updates go out by mail')
  if (!notify.publicUrl) {
    throw new Error('UPDATES=true needs PUBLIC_URL: every link in an update (confirm, unsubscribe) is a full address')
  }
  // Plain http only for a site tried on this machine: elsewhere the unsubscribe link must be https.
  const host = new URL(notify.publicUrl).hostname
  if (notify.publicUrl.startsWith('http:') && !['localhost', '127.0.0.1', '[::1]'].includes(host)) {
    throw new Error(
      'UPDATES=true needs PUBLIC_URL to start with https:// (http only for localhost): mail programs offer one-click unsubscribe only for https links',
    )
  }
  return { perMinute, publicUrl: notify.publicUrl }
}

function readWebhook(env: Environment): WebhookSettings | null {
  const url = text(env, 'WEBHOOK_URL')
  const secret = env.WEBHOOK_SECRET?.trim() ?? ''
  const includeSpam = yesOrNo(env, 'WEBHOOK_INCLUDE_SPAM')
  if (!url) {
    if (secret) throw new Error('WEBHOOK_SECRET is set but WEBHOOK_URL is not: set both, or neither')
    if (includeSpam) throw new Error('WEBHOOK_INCLUDE_SPAM is set but WEBHOOK_URL is not')
    return null
  }
  const parsed = URL.canParse(url) ? new URL(url) : null
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw new Error('WEBHOOK_URL must be an http:// or https:// address such as https://n8n.farm.example/webhook/leads')
  }
  // The signature is what proves a post is the farm's; a password in the address would only be logged.
  if (parsed.username || parsed.password) {
    throw new Error(
      'WEBHOOK_URL must not hold a user name or password: the signature (WEBHOOK_SECRET) proves each post',
    )
  }
  // Standard Webhooks: "whsec_" and the key in base64, 24 to 64 bytes. The value is never repeated here.
  const key = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret)?.[1]
  const decoded = key ? Buffer.from(key, 'base64') : Buffer.alloc(0)
  // A key cut short in copying still decodes; it must come back as the very same text.
  const whole = key !== undefined && decoded.toString('base64').replace(/=+$/, '') === key.replace(/=+$/, '')
  if (!whole || decoded.length < 24 || decoded.length > 64) {
    throw new Error(
      'WEBHOOK_SECRET must be "whsec_" and a key of 24 to 64 bytes in base64 (e.g. whsec_ and the output of `openssl rand -base64 32`)',
    )
  }
  return {
    url: parsed.href,
    key: decoded,
    includeSpam,
  }
}

function readMailbox(env: Environment): MailboxSettings | null {
  const url = text(env, 'INBOUND_IMAP_URL')
  const moveTo = text(env, 'INBOUND_MOVE_TO')
  if (!url) {
    if (moveTo) throw new Error('INBOUND_MOVE_TO is set but INBOUND_IMAP_URL is not')
    return null
  }
  if (!URL.canParse(url)) {
    throw new Error(
      'INBOUND_IMAP_URL must be an address such as imaps://farm%40farm.example:password@imap.farm.example:993/INBOX',
    )
  }
  let folder: string
  try {
    folder = mailboxOf(url).folder
  } catch (error) {
    throw new Error(`INBOUND_IMAP_URL ${(error as Error).message}`)
  }
  // Moved into the folder it is read from, each message would come back under a new UID, and again.
  if (moveTo && moveTo.toLowerCase() === folder.toLowerCase()) {
    throw new Error(`INBOUND_MOVE_TO must be another folder than the one read (${folder})`)
  }
  if (moveTo && (moveTo.length > 200 || /[\u0000-\u001f\u007f*%]/.test(moveTo))) {
    throw new Error('INBOUND_MOVE_TO must be a folder name such as "Farm site", without control characters, * or %')
  }
  return { url, moveTo: moveTo || null }
}

const loopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)

/** The bucket each backup is copied to: its address (https, no name or password in it), name, key and secret. */
function readBucket(env: Environment): BucketSettings | null {
  const endpoint = text(env, 'BACKUP_BUCKET_ENDPOINT')
  if (!endpoint) return null
  const url = URL.canParse(endpoint) ? new URL(endpoint) : null
  if (url?.protocol !== 'https:' && !(url?.protocol === 'http:' && loopback(url.hostname))) {
    throw new Error(
      'BACKUP_BUCKET_ENDPOINT must be an https:// address such as https://s3.eu-central-003.backblazeb2.com (http only on this machine)',
    )
  }
  // The key ID and secret have fields of their own: one in the address would be sent and logged as it is.
  if (url.username || url.password) {
    throw new Error(
      'BACKUP_BUCKET_ENDPOINT must not hold a user name or password: the key ID and secret have their own fields',
    )
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new Error(
      'BACKUP_BUCKET_ENDPOINT must be the provider’s address alone, with no path: the bucket’s name has its own field',
    )
  }
  const bucket = text(env, 'BACKUP_BUCKET')
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new Error('BACKUP_BUCKET must be the bucket’s name: 3 to 63 lower-case letters, digits, dots and hyphens')
  }
  const accessKeyId = text(env, 'BACKUP_BUCKET_ACCESS_KEY')
  if (!/^[\x21-\x7e]{1,200}$/.test(accessKeyId)) {
    throw new Error('BACKUP_BUCKET_ACCESS_KEY must be the key ID the provider gave you, with no spaces')
  }
  const secret = env.BACKUP_BUCKET_SECRET ?? ''
  if (!secret) throw new Error('BACKUP_BUCKET_SECRET must be set with the bucket: the key’s secret')
  const region = text(env, 'BACKUP_BUCKET_REGION') || regionOf(url.origin)
  if (!/^[a-z0-9-]{1,50}$/.test(region)) throw new Error('BACKUP_BUCKET_REGION must be a region such as eu-central-003')
  return { endpoint: url.origin, bucket, region, accessKeyId, secret }
}

function readSealKey(env: Environment): Buffer | null {
  const key = env.BACKUP_BUCKET_KEY?.trim()
  if (!key) return null
  try {
    return readKeyText(key)
  } catch {
    // The value is never repeated here.
    throw new Error('BACKUP_BUCKET_KEY must be the 43-character key the settings page showed once')
  }
}

export function readConfig(env: Environment = process.env): Config {
  const notify = readNotify(env)
  return {
    mode: env.NODE_ENV === 'development' ? 'development' : 'production',
    logLevel: readLogLevel(env),
    devServerOrigin: env.NODE_ENV === 'development' && env.REMIX_DEV_ORIGIN ? env.REMIX_DEV_ORIGIN : null,
    port: wholeNumber(env, 'PORT'),
    host: text(env, 'HOST'),
    databasePath: text(env, 'DATABASE_PATH'),
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    farmName: text(env, 'FARM_NAME'),
    farmProduct: text(env, 'FARM_PRODUCT'),
    farmTimeZone: readTimeZone(env),
    farmLanguages: readLanguages(env),
    allowedOrigins: origins(env),
    siteHosts: siteHosts(env),
    trustProxy: trustProxy(env),
    submissionsPerMinute: wholeNumber(env, 'SUBMISSION_RATE_LIMIT'),
    liveMaxSockets: wholeNumber(env, 'LIVE_MAX_SOCKETS'),
    liveMaxSocketsPerAddress: wholeNumber(env, 'LIVE_MAX_SOCKETS_PER_ADDRESS'),
    hstsIncludeSubDomains: yesOrNo(env, 'HSTS_INCLUDE_SUBDOMAINS'),
    minFillSeconds: wholeNumber(env, 'MIN_FILL_SECONDS'),
    ownerPassword: secret(env, 'OWNER_PASSWORD'),
    sessionSecret: secret(env, 'SESSION_SECRET'),
    farmProducts: readProducts(env),
    analysisTimeoutMs: wholeNumber(env, 'ANALYSIS_TIMEOUT_MS'),
    spamRetentionDays: wholeNumber(env, 'SPAM_RETENTION_DAYS'),
    handledRetentionDays: text(env, 'HANDLED_RETENTION_DAYS') ? wholeNumber(env, 'HANDLED_RETENTION_DAYS') : null,
    activityDays: wholeNumber(env, 'ACTIVITY_DAYS'),
    backups: {
      // Beside the database by default (data/backups), so they are on the same volume.
      dir: text(env, 'BACKUP_DIR') || join(dirname(text(env, 'DATABASE_PATH')), 'backups'),
      everyMs: wholeNumber(env, 'BACKUP_EVERY_MINUTES') * 60_000,
      keep: wholeNumber(env, 'BACKUP_KEEP'),
      bucket: readBucket(env),
      sealKey: readSealKey(env),
    },
    exportsAtOnce: wholeNumber(env, 'EXPORTS_AT_ONCE'),
    llm: readLlm(env),
    notify,
    visitorAck: yesOrNo(env, 'VISITOR_ACK'),
    orders: { cancelHoursBefore: wholeNumber(env, 'ORDER_CANCEL_HOURS'), reminders: yesOrNo(env, 'ORDER_REMINDERS') },
    retryBaseMs: retryBaseMs(env),
    repliesPerMinute: wholeNumber(env, 'REPLY_RATE_LIMIT'),
    updates: readUpdates(env, notify),
    webhook: readWebhook(env),
    mailbox: readMailbox(env),
    dkim: readDkim(env),
    dnsServers: readDnsServers(env),
    testMailProvider: readTestMailProvider(env),
    push: readPush(env),
  }
}
