import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { farmSettings } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { Log } from '#app/log'
import { fieldOf, fields, mailSecurity, type FieldState, type Source } from './fields'

type Environment = Record<string, string | undefined>

/** The mail server's parts when the page sets them; SMTP_URL, set in the environment, sets them all. */
const mailServerDefaults: Record<string, string> = {
  SMTP_HOST: '',
  SMTP_PORT: '587',
  SMTP_SECURITY: 'starttls',
  SMTP_USER: '',
  SMTP_PASSWORD: '',
}

/** A value the page or the API may store: one line (or lines, for the products), of a sensible length. */
const mostChars = { 'long-text': 10_000, other: 500 }

const hostName = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i

/** smtp:// or smtps:// from the page's parts, as SMTP_URL would say it; '' without a host. */
export function smtpUrlOf(parts: Record<string, string>): string {
  const host = parts.SMTP_HOST ?? ''
  if (!host) return ''
  const security = parts.SMTP_SECURITY || mailServerDefaults.SMTP_SECURITY
  const user = parts.SMTP_USER ?? ''
  const password = parts.SMTP_PASSWORD ?? ''
  const login = user ? `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@` : ''
  const port = parts.SMTP_PORT || mailServerDefaults.SMTP_PORT
  const scheme = security === 'tls' ? 'smtps' : 'smtp'
  return `${scheme}://${login}${host}:${port}${security === 'starttls' ? '?requireTLS=true' : ''}`
}

/** What SMTP_URL, set in the environment, says of each part the page shows (never its password). */
function partsOfSmtpUrl(smtpUrl: string): Record<string, string | null> {
  const url = URL.canParse(smtpUrl) ? new URL(smtpUrl) : null
  if (!url) return {}
  return {
    SMTP_HOST: url.hostname,
    SMTP_PORT: url.port || (url.protocol === 'smtps:' ? '465' : '587'),
    SMTP_SECURITY:
      url.protocol === 'smtps:' ? 'tls' : url.searchParams.get('requireTLS') === 'true' ? 'starttls' : 'offered',
    SMTP_USER: decodeURIComponent(url.username),
    SMTP_PASSWORD: null,
  }
}

/** A refusal of one change: the field's own words, or the whole change's (unknown or locked keys). */
export type SettingsRefusal =
  { kind: 'fields'; fields: Record<string, string> } | { kind: 'request'; status: 400 | 409; error: string }

export type SettingsChange = Record<string, string | null>

/**
 * The farm's settings: the page's and the API's rows, under the environment, which still wins,
 * read by `read` (readConfig, with the same limits and words) into what the site runs with.
 * A change is checked whole before it is stored, then every listener is told at once: the next
 * mail, push or page is made with it, without a restart.
 */
export function createSettings<Config>({
  db,
  writes,
  env,
  defaults,
  read,
  log,
  now = Date.now,
}: {
  db: FarmDatabase
  writes: Writes
  env: Environment
  /** Every environment variable's default (server/config.ts). */
  defaults: Record<string, string>
  read: (env: Environment) => Config
  log: Log
  now?: () => number
}) {
  const fromEnvironment = (key: string) => {
    const value = env[key]?.trim()
    return value ? value : null
  }
  const lockOf = (key: string) => fieldOf(key)?.lockedBy ?? key
  const locked = (key: string) => fromEnvironment(lockOf(key)) !== null

  const storedRows = () =>
    new Map(
      db
        .select()
        .from(farmSettings)
        .all()
        .map((row) => [row.key, row.value]),
    )

  /** The environment readConfig reads: the stored values where the environment sets none. */
  function environmentWith(stored: Map<string, string>): Environment {
    const merged: Environment = { ...env }
    for (const [key, value] of stored) {
      // Only what the page sets: a row of any other name (a restored file's, say) is never read.
      if (!fieldOf(key) || key in mailServerDefaults || locked(key)) continue
      merged[key] = value
    }
    if (!locked('SMTP_HOST')) {
      merged.SMTP_URL = smtpUrlOf(Object.fromEntries([...stored].filter(([key]) => key in mailServerDefaults)))
    }
    return merged
  }

  /** Which field a readConfig refusal speaks of: the variable it names first. */
  function keyOfRefusal(message: string): string {
    const named = /^([A-Z][A-Z_]+)/.exec(message)?.[1] ?? ''
    return named === 'SMTP_URL' ? 'SMTP_HOST' : named
  }

  /** The refusal without the variable's name, which the page shows beside its field. */
  function inFieldWords(message: string): string {
    const rest = message.replace(/^[A-Z][A-Z_]+(?:=\w+)?:?\s*/, '')
    return rest.charAt(0).toUpperCase() + rest.slice(1)
  }

  // At start: a stored value the environment now makes wrong is set aside (said once), never a reason not to start.
  let ignored = new Set<string>()
  function readFrom(stored: Map<string, string>): Config {
    // A row the page would have refused (a restored file holds what anyone wrote into it) is set aside too.
    const refused = [...stored].filter(([key, value]) => fieldOf(key) && ownProblem(key, value) !== null)
    if (refused.length > 0) {
      ignored = new Set(refused.map(([key]) => key))
      log.warn({ keys: [...ignored] }, 'set aside a stored setting')
    }
    for (;;) {
      const usable = new Map([...stored].filter(([key]) => !ignored.has(key)))
      try {
        return read(environmentWith(usable))
      } catch (error) {
        const key = keyOfRefusal((error as Error).message)
        const mailPart = key === 'SMTP_HOST' ? Object.keys(mailServerDefaults) : [key]
        const dropping = mailPart.filter((part) => usable.has(part))
        if (dropping.length === 0) throw error
        ignored = new Set([...ignored, ...dropping])
        log.warn({ keys: dropping, reason: inFieldWords((error as Error).message) }, 'set aside a stored setting')
      }
    }
  }

  let config = readFrom(storedRows())
  const listeners = new Set<(config: Config, changed: string[]) => void>()

  /** A value's own checks, before readConfig sees it with the rest. */
  function ownProblem(key: string, value: string): string | null {
    const field = fieldOf(key)!
    const longest = field.kind === 'long-text' ? mostChars['long-text'] : mostChars.other
    if (value.length > longest) return `At most ${longest} characters.`
    const control = field.kind === 'long-text' ? /[\u0000-\u0009\u000b-\u001f\u007f]/ : /[\u0000-\u001f\u007f]/
    if (control.test(value)) return 'Only printable characters, please.'
    if (key === 'SMTP_HOST' && !hostName.test(value)) return 'A host name such as smtp.farm.example.'
    if (key === 'SMTP_PORT' && !(/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535)) {
      return 'A port from 1 to 65535.'
    }
    if (field.kind === 'choice' && !field.choices?.some((choice) => choice.value === value)) {
      return `One of ${mailSecurity.map((choice) => choice.value).join(', ')}.`
    }
    if (field.kind === 'yes-no' && value !== 'true' && value !== 'false') return 'Must be true or false.'
    return null
  }

  /** What a change would make: the config, or why not (each field's own words). */
  function preview(
    change: SettingsChange,
  ): { ok: true; config: Config; stored: Map<string, string> } | { ok: false; refusal: SettingsRefusal } {
    const unknown = Object.keys(change).filter((key) => !fieldOf(key))
    if (unknown.length > 0) {
      return { ok: false, refusal: { kind: 'request', status: 400, error: `No such setting: ${unknown.join(', ')}.` } }
    }
    const lockedKeys = Object.keys(change).filter(locked)
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
    const stored = new Map([...storedRows()].filter(([key]) => !ignored.has(key)))
    const next = new Map(stored)
    for (const [key, raw] of Object.entries(change)) {
      if (raw !== null && typeof raw !== 'string') {
        problems[key] = 'Must be text, or null to take the default.'
        continue
      }
      const value = (raw ?? '').trim()
      if (value === '') {
        next.delete(key)
        continue
      }
      const problem = ownProblem(key, value)
      if (problem) problems[key] = problem
      else next.set(key, value)
    }
    // Checked whole, as readConfig reads it at start; each refusal is said beside its own field, and
    // that field's change set back, so the next refusal (if any) is found too.
    const trial = new Map(next)
    for (let tries = 0; tries <= fields.length; tries++) {
      try {
        const config = read(environmentWith(trial))
        if (Object.keys(problems).length > 0) break
        return { ok: true, config, stored: next }
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

  return {
    /** What the site runs with now. */
    get config() {
      return config
    },
    preview,
    /** Stores a change checked whole, and tells every listener; or says why not, changing nothing. */
    async change(change: SettingsChange): Promise<{ ok: true } | { ok: false; refusal: SettingsRefusal }> {
      const checked = preview(change)
      if (!checked.ok) return checked
      const at = new Date(now())
      await writes.whenFree(() =>
        db.transaction((tx) => {
          for (const key of Object.keys(change)) {
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
      config = checked.config
      const changed = Object.keys(change)
      // Which settings changed, never their values: a secret's value must stay out of the log.
      log.info({ settings: changed }, 'settings changed')
      for (const listener of listeners) {
        try {
          listener(config, changed)
        } catch (error) {
          log.error({ err: error }, 'a part of the site could not take the new settings')
        }
      }
      return { ok: true }
    },
    /** Called with the new config after every stored change. */
    onChange(listener: (config: Config, changed: string[]) => void) {
      listeners.add(listener)
    },
    /** Every field: its value (a secret only as set or not), where it comes from, and what locks it. */
    view(): FieldState[] {
      const stored = storedRows()
      const smtpUrl = fromEnvironment('SMTP_URL')
      const fromSmtpUrl = smtpUrl ? partsOfSmtpUrl(smtpUrl) : {}
      return fields.map(({ key, kind }) => {
        const lock = lockOf(key)
        const environment = fromEnvironment(lock)
        const mine = ignored.has(key) ? undefined : stored.get(key)
        const source: Source = environment !== null ? 'environment' : mine !== undefined ? 'settings page' : 'default'
        const value =
          environment !== null
            ? lock === key
              ? environment
              : (fromSmtpUrl[key] ?? null)
            : (mine ?? mailServerDefaults[key] ?? defaults[key] ?? '')
        const secret = kind === 'secret'
        return {
          key,
          value: secret ? null : value,
          set: secret
            ? environment !== null
              ? key !== 'SMTP_PASSWORD' || /:[^@/]*@/.test(smtpUrl ?? '')
              : Boolean(mine)
            : Boolean(value),
          source,
          lockedBy: environment !== null ? lock : null,
        }
      })
    },
    /** A secret's stored value, for a test with the values on the form when its field was left unchanged. */
    secret(key: 'SMTP_PASSWORD' | 'WEBHOOK_SECRET'): string {
      return fromEnvironment(key) ?? storedRows().get(key) ?? ''
    },
  }
}

export type Settings<Config = unknown> = ReturnType<typeof createSettings<Config>>
