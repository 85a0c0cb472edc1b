import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { farmSettings } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { Log } from '#app/log'
import { settingOf } from './declared'
import { fieldOf, fields, type FieldState, type Source } from './fields'

type Environment = Record<string, string | undefined>

/**
 * A server the page sets in parts (host, port, security, user, password…) and the environment in
 * one URL, which then sets them all: the mail server the site sends through (SMTP_URL), and the
 * farm's mailbox it reads (INBOUND_IMAP_URL).
 */
interface ServerInParts {
  url: string
  host: string
  password: string
  parts: string[]
  defaultSecurity: string
  /** Each way of securing the connection's usual port. */
  portFor: (security: string | undefined) => string
  /** The URL the parts make, as the environment would say it; '' without a host. */
  urlOf: (parts: Record<string, string | undefined>) => string
  /** What the URL set in the environment says of each part the page shows (never its password). */
  partsOf: (url: URL) => Record<string, string | null>
}

const loginOf = (user: string, password: string) =>
  user ? `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@` : ''

const servers: ServerInParts[] = [
  {
    url: 'SMTP_URL',
    host: 'SMTP_HOST',
    password: 'SMTP_PASSWORD',
    parts: ['SMTP_HOST', 'SMTP_PORT', 'SMTP_SECURITY', 'SMTP_USER', 'SMTP_PASSWORD'],
    defaultSecurity: 'starttls',
    portFor: (security) => ((security || 'starttls') === 'tls' ? '465' : '587'),
    urlOf: (parts) => smtpUrlOf(parts),
    partsOf: (url) => ({
      SMTP_HOST: url.hostname,
      SMTP_PORT: url.port || (url.protocol === 'smtps:' ? '465' : '587'),
      SMTP_SECURITY:
        url.protocol === 'smtps:' ? 'tls' : url.searchParams.get('requireTLS') === 'true' ? 'starttls' : 'offered',
      SMTP_USER: decodedPart(url.username),
      SMTP_PASSWORD: null,
    }),
  },
  {
    url: 'INBOUND_IMAP_URL',
    host: 'IMAP_HOST',
    password: 'IMAP_PASSWORD',
    parts: ['IMAP_HOST', 'IMAP_PORT', 'IMAP_SECURITY', 'IMAP_USER', 'IMAP_PASSWORD', 'IMAP_FOLDER'],
    defaultSecurity: 'tls',
    portFor: (security) => ((security || 'tls') === 'tls' ? '993' : '143'),
    urlOf: (parts) => {
      const host = parts.IMAP_HOST ?? ''
      if (!host) return ''
      const security = parts.IMAP_SECURITY || 'tls'
      const port = parts.IMAP_PORT || (security === 'tls' ? '993' : '143')
      const folder = encodeURIComponent(parts.IMAP_FOLDER || 'INBOX')
      const login = loginOf(parts.IMAP_USER ?? '', parts.IMAP_PASSWORD ?? '')
      return `${security === 'tls' ? 'imaps' : 'imap'}://${login}${host}:${port}/${folder}`
    },
    partsOf: (url) => ({
      IMAP_HOST: url.hostname,
      IMAP_PORT: url.port || (url.protocol === 'imaps:' ? '993' : '143'),
      IMAP_SECURITY: url.protocol === 'imaps:' ? 'tls' : 'starttls',
      IMAP_USER: decodedPart(url.username),
      IMAP_PASSWORD: null,
      IMAP_FOLDER: decodedPart(url.pathname.slice(1)) || 'INBOX',
    }),
  },
]
const serverOfPart = (key: string) => servers.find((server) => server.parts.includes(key))
const isServerPart = (key: string) => serverOfPart(key) !== undefined

/** A value the page or the API may store: one line (or lines, for the products), of a sensible length. */
const mostChars = { 'long-text': 10_000, other: 500 }

const hostName = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i

/** A part of a URL as written, decoded when it can be (a stray `%` stays as it is). */
export function decodedPart(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

/** smtp:// or smtps:// from the page's parts, as SMTP_URL would say it; '' without a host. */
export function smtpUrlOf(parts: Record<string, string | undefined>): string {
  const host = parts.SMTP_HOST ?? ''
  if (!host) return ''
  const security = parts.SMTP_SECURITY || 'starttls'
  const port = parts.SMTP_PORT || (security === 'tls' ? '465' : '587')
  const scheme = security === 'tls' ? 'smtps' : 'smtp'
  const login = loginOf(parts.SMTP_USER ?? '', parts.SMTP_PASSWORD ?? '')
  return `${scheme}://${login}${host}:${port}${security === 'starttls' ? '?requireTLS=true' : ''}`
}

/**
 * Which secret goes with which address: a secret kept for one server or endpoint is never sent to
 * another, so changing where it goes means typing it again.
 */
const secretsAndWhereTheyGo = [
  { secret: 'SMTP_PASSWORD', where: ['SMTP_HOST', 'SMTP_PORT', 'SMTP_SECURITY', 'SMTP_USER'] },
  { secret: 'IMAP_PASSWORD', where: ['IMAP_HOST', 'IMAP_PORT', 'IMAP_SECURITY', 'IMAP_USER'] },
  { secret: 'WEBHOOK_SECRET', where: ['WEBHOOK_URL'] },
]

/** A refusal of one change: the field's own words, or the whole change's (unknown or locked keys). */
export type SettingsRefusal =
  { kind: 'fields'; fields: Record<string, string> } | { kind: 'request'; status: 400 | 409; error: string }

export type SettingsChange = Record<string, string | null>

/**
 * The farm's settings: the page's and the API's rows, under the environment, which still wins,
 * read by `read` (readConfig, with the same limits and words) into what the site runs with.
 * A change is checked whole before it is stored, then every listener is told at once: the next
 * mail, push or page is made with it, without a restart. Without an owner (no OWNER_PASSWORD) no
 * row is read: nobody could see or change them, so a restored file's would rule unseen.
 */
export function createSettings<Config>({
  db,
  writes,
  env,
  defaults,
  read,
  hasOwner,
  log,
  now = Date.now,
}: {
  db: FarmDatabase
  writes: Writes
  env: Environment
  /** Every environment variable's default (server/config.ts). */
  defaults: Record<string, string>
  read: (env: Environment) => Config
  /** Whether a signed-in owner keeps the settings (OWNER_PASSWORD set). */
  hasOwner: () => boolean
  log: Log
  now?: () => number
}) {
  const fromEnvironment = (key: string) => {
    const value = env[key]?.trim()
    return value ? value : null
  }
  const lockOf = (key: string) => fieldOf(key)?.lockedBy ?? key
  const locked = (key: string) => fromEnvironment(lockOf(key)) !== null

  // Only the page's own fields, and only as the page would take them (a restored file holds what
  // anyone wrote into it); a row set aside is said once and left in the table.
  let ignored = new Set<string>()
  const storedRows = () =>
    new Map(
      hasOwner()
        ? db
            .select()
            .from(farmSettings)
            .all()
            .filter((row) => fieldOf(row.key) && !ignored.has(row.key))
            .map((row) => [row.key, row.value])
        : [],
    )

  /** The environment readConfig reads: the stored values where the environment sets none. */
  function environmentWith(stored: Map<string, string>): Environment {
    const merged: Environment = { ...env }
    for (const [key, value] of stored) {
      if (!isServerPart(key) && !locked(key)) merged[key] = value
    }
    for (const server of servers) {
      if (locked(server.host)) continue
      merged[server.url] = server.urlOf(Object.fromEntries([...stored].filter(([key]) => server.parts.includes(key))))
    }
    return merged
  }

  /** Which field a readConfig refusal speaks of: the variable it names first. */
  function keyOfRefusal(message: string): string {
    const named = /^([A-Z][A-Z_]+)/.exec(message)?.[1] ?? ''
    return servers.find((server) => server.url === named)?.host ?? named
  }

  /** The refusal without the variable's name, which the page shows beside its field. */
  function inFieldWords(message: string): string {
    const rest = message.replace(/^[A-Z][A-Z_]+(?:=\w+)?:?\s*/, '')
    return rest.charAt(0).toUpperCase() + rest.slice(1)
  }

  /** A value's own checks, before readConfig sees it with the rest. */
  function ownProblem(key: string, value: string): string | null {
    const field = fieldOf(key)!
    const longest = field.kind === 'long-text' ? mostChars['long-text'] : mostChars.other
    if (value.length > longest) return `At most ${longest} characters.`
    const control = field.kind === 'long-text' ? /[\u0000-\u0009\u000b-\u001f\u007f]/ : /[\u0000-\u001f\u007f]/
    if (control.test(value)) return 'Only printable characters, please.'
    const server = serverOfPart(key)
    if (key === server?.host && !hostName.test(value))
      return `A host name such as ${key === 'SMTP_HOST' ? 'smtp' : 'imap'}.farm.example.`
    if (field.kind === 'whole-number' && server) {
      const { min, max } = settingOf(key)!
      if (!(/^\d{1,5}$/.test(value) && Number(value) >= min! && Number(value) <= max!))
        return `A port from ${min} to ${max}.`
    }
    if (field.kind === 'choice' && !field.choices?.some((choice) => choice.value === value)) {
      return `One of ${field.choices?.map((choice) => choice.value).join(', ')}.`
    }
    if (field.kind === 'yes-no' && value !== 'true' && value !== 'false') return 'Must be true or false.'
    return null
  }

  // At start: a stored value the environment now makes wrong is set aside (said once), never a reason not to start.
  function readFrom(): Config {
    const refused = [...storedRows()].filter(([key, value]) => ownProblem(key, value) !== null)
    if (refused.length > 0) {
      ignored = new Set(refused.map(([key]) => key))
      log.warn({ keys: [...ignored] }, 'set aside a stored setting')
    }
    for (;;) {
      try {
        return read(environmentWith(storedRows()))
      } catch (error) {
        const key = keyOfRefusal((error as Error).message)
        const stored = storedRows()
        const whole = servers.find((server) => server.host === key)
        const dropping = (whole ? whole.parts : [key]).filter((part) => stored.has(part))
        if (dropping.length === 0) throw error
        ignored = new Set([...ignored, ...dropping])
        log.warn({ keys: dropping, reason: inFieldWords((error as Error).message) }, 'set aside a stored setting')
      }
    }
  }

  let config = readFrom()
  const listeners = new Set<(config: Config, changed: string[]) => void>()

  /** What a change would make: the config, or why not (each field's own words). */
  function preview(
    asked: SettingsChange,
  ):
    | { ok: true; config: Config; stored: Map<string, string>; change: SettingsChange }
    | { ok: false; refusal: SettingsRefusal } {
    const unknown = Object.keys(asked).filter((key) => !fieldOf(key))
    if (unknown.length > 0) {
      return { ok: false, refusal: { kind: 'request', status: 400, error: `No such setting: ${unknown.join(', ')}.` } }
    }
    const lockedKeys = Object.keys(asked).filter(locked)
    if (lockedKeys.length > 0) {
      const names = [...new Set(lockedKeys.map(lockOf))].join(', ')
      return {
        ok: false,
        refusal: {
          kind: 'request',
          status: 409,
          error: `Set in the site's environment (${names}), so it cannot be changed here.`,
        },
      }
    }
    const problems: Record<string, string> = {}
    const stored = storedRows()
    const change: SettingsChange = { ...asked }
    // A webhook without an address is none: its secret and its spam choice go with it.
    if (asked.WEBHOOK_URL === null || (typeof asked.WEBHOOK_URL === 'string' && !asked.WEBHOOK_URL.trim())) {
      for (const key of ['WEBHOOK_SECRET', 'WEBHOOK_INCLUDE_SPAM']) if (!locked(key)) change[key] = null
    }
    const next = new Map(stored)
    for (const [key, raw] of Object.entries(change)) {
      if (raw !== null && typeof raw !== 'string') {
        problems[key] = 'Must be text, or null to take the default.'
        continue
      }
      // A secret is kept as typed, spaces and all.
      const value = fieldOf(key)!.kind === 'secret' ? (raw ?? '') : (raw ?? '').trim()
      if (value === '') {
        next.delete(key)
        continue
      }
      const problem = ownProblem(key, value)
      if (problem) problems[key] = problem
      else next.set(key, value)
    }
    for (const { secret, where } of secretsAndWhereTheyGo) {
      // To nowhere (the address emptied) is no move: the secret then goes nowhere.
      const moved =
        Boolean(next.get(where[0]!)) &&
        where.some((key) => key in change && (next.get(key) ?? '') !== (stored.get(key) ?? ''))
      if (moved && stored.has(secret) && next.has(secret) && !(secret in change)) {
        problems[secret] = `Type it again: it is sent only where it was set for, and that changed.`
      }
    }
    // Checked whole, as readConfig reads it at start; each refusal is said beside its own field, and
    // that field's change set back, so the next refusal (if any) is found too.
    const trial = new Map(next)
    for (let tries = 0; tries <= fields.length; tries++) {
      try {
        const made = read(environmentWith(trial))
        // The digest's numbers are read only with mail set up: checked as if it were.
        read({
          ...environmentWith(trial),
          SMTP_URL: 'smtp://check.example',
          NOTIFY_EMAIL: 'check@example.com',
          UPDATES: 'false',
        })
        if (Object.keys(problems).length > 0) break
        return { ok: true, config: made, stored: next, change }
      } catch (error) {
        const message = (error as Error).message
        const about = keyOfRefusal(message) || 'form'
        problems[about] = inFieldWords(message)
        if (!(about in change)) break
        if (stored.has(about)) trial.set(about, stored.get(about)!)
        else trial.delete(about)
      }
    }
    return { ok: false, refusal: { kind: 'fields', fields: problems } }
  }

  // One change at a time: each is checked against what the one before it stored.
  let changing: Promise<unknown> = Promise.resolve()

  return {
    /** What the site runs with now. */
    get config() {
      return config
    },
    preview,
    /**
     * Stores a change checked whole, and tells every listener; or says why not, changing nothing.
     * `check` (what needs the network, say) runs in turn with the other changes, on the config
     * this one would make.
     */
    change(
      asked: SettingsChange,
      check: (config: Config, change: SettingsChange) => Promise<SettingsRefusal | null> = async () => null,
    ): Promise<{ ok: true } | { ok: false; refusal: SettingsRefusal }> {
      const done = changing.then(async () => {
        const checked = preview(asked)
        if (!checked.ok) return checked
        const refusal = await check(checked.config, checked.change)
        if (refusal) return { ok: false as const, refusal }
        const at = new Date(now())
        const changed = Object.keys(checked.change)
        // A secret set aside at start (a restored file's) goes when its address is set anew.
        const leftAside = secretsAndWhereTheyGo
          .filter(({ where }) => where.some((key) => changed.includes(key)))
          .flatMap(({ secret, where }) => [secret, ...where])
          .filter((key) => ignored.has(key) && !changed.includes(key))
        await writes.whenFree(() =>
          db.transaction((tx) => {
            for (const key of leftAside) tx.delete(farmSettings).where(eq(farmSettings.key, key)).run()
            for (const key of changed) {
              const value = checked.stored.get(key)
              if (value === undefined) tx.delete(farmSettings).where(eq(farmSettings.key, key)).run()
              else
                tx.insert(farmSettings)
                  .values({ key, value, changedAt: at })
                  .onConflictDoUpdate({ target: farmSettings.key, set: { value, changedAt: at } })
                  .run()
            }
          }),
        )
        // A row set aside at start and written again is the owner's choice now.
        ignored = new Set([...ignored].filter((key) => !changed.includes(key) && !leftAside.includes(key)))
        config = checked.config
        // Which settings changed, never their values: a secret's value must stay out of the log.
        log.info({ settings: changed }, 'settings changed')
        for (const listener of listeners) {
          try {
            listener(config, changed)
          } catch (error) {
            log.error({ err: error }, 'a part of the site could not take the new settings')
          }
        }
        return { ok: true as const }
      })
      changing = done.catch(() => {})
      return done
    },
    /** Called with the new config after every stored change. */
    onChange(listener: (config: Config, changed: string[]) => void) {
      listeners.add(listener)
    },
    /** Every field: its value (a secret only as set or not), where it comes from, and what locks it. */
    view(): FieldState[] {
      const stored = storedRows()
      const fromUrls = Object.fromEntries(
        servers.map((server) => {
          const url = fromEnvironment(server.url)
          return [server.url, url && URL.canParse(url) ? server.partsOf(new URL(url)) : {}]
        }),
      )
      return fields.map(({ key, kind }) => {
        const lock = lockOf(key)
        const environment = fromEnvironment(lock)
        const mine = stored.get(key)
        const source: Source = environment !== null ? 'environment' : mine !== undefined ? 'settings page' : 'default'
        const server = serverOfPart(key)
        const shownDefault =
          server && key.endsWith('_PORT')
            ? server.portFor(stored.get(key.replace('_PORT', '_SECURITY')))
            : server && key.endsWith('_SECURITY')
              ? server.defaultSecurity
              : key === 'IMAP_FOLDER'
                ? 'INBOX'
                : (defaults[key] ?? '')
        const value =
          environment !== null ? (lock === key ? environment : (fromUrls[lock]?.[key] ?? null)) : (mine ?? shownDefault)
        const secret = kind === 'secret'
        return {
          key,
          value: secret ? null : value,
          set: secret
            ? environment !== null
              ? key !== server?.password || /:[^@/]*@/.test(environment)
              : Boolean(mine)
            : Boolean(value),
          source,
          lockedBy: environment !== null ? lock : null,
        }
      })
    },
  }
}

export type Settings<Config = unknown> = ReturnType<typeof createSettings<Config>>
