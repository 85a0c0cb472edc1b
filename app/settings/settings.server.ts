import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { farmSettings } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { Log } from '#app/log'
import { inFieldWords, keyOfRefusal, ownProblem } from './field-checks'
import { fieldStates } from './field-states.server'
import { fieldOf, fields, type FieldState } from './fields'
import { isServerPart, secretsAndWhereTheyGo, servers } from './servers-in-parts'
import { readChange, type SettingsChange } from './settings-change'

type Environment = Record<string, string | undefined>

/** A refusal of one change: the field's own words, or the whole change's (unknown or locked keys). */
export type SettingsRefusal =
  { kind: 'fields'; fields: Record<string, string> } | { kind: 'request'; status: 400 | 409; error: string }

/** A change as asked (a JSON body): read by its schema (settings-change.ts) before anything else. */
export type AskedChange = Record<string, unknown>

/** Reads the environment as the settings see it: a value set there locks its field, or the field's URL does. */
function environmentLocks(env: Environment) {
  const fromEnvironment = (key: string) => {
    const value = env[key]?.trim()
    return value ? value : null
  }
  const lockOf = (key: string) => fieldOf(key)?.lockedBy ?? key
  return { fromEnvironment, lockOf, locked: (key: string) => fromEnvironment(lockOf(key)) !== null }
}

/** The environment readConfig reads: the stored values where the environment sets none. */
function environmentAndStored(env: Environment, stored: Map<string, string>, locked: (key: string) => boolean) {
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

/** A change that names a setting there is none of (400). */
const noSuchSetting = (unknown: string[]): SettingsRefusal => ({
  kind: 'request',
  status: 400,
  error: `No such setting: ${unknown.join(', ')}.`,
})

/** A change that names a setting the environment sets (409). */
function refusalOfLocked(
  keys: string[],
  { locked, lockOf }: Pick<ReturnType<typeof environmentLocks>, 'locked' | 'lockOf'>,
): SettingsRefusal | null {
  const lockedKeys = keys.filter(locked)
  if (lockedKeys.length === 0) return null
  const names = [...new Set(lockedKeys.map(lockOf))].join(', ')
  return {
    kind: 'request',
    status: 409,
    error: `Set in the site's environment (${names}), so it cannot be changed here.`,
  }
}

/** Stores a change in one transaction: each changed row written or removed, and what it leaves aside removed. */
function keep(
  db: FarmDatabase,
  { changed, leftAside, stored, at }: { changed: string[]; leftAside: string[]; stored: Map<string, string>; at: Date },
) {
  db.transaction((tx) => {
    for (const key of leftAside) tx.delete(farmSettings).where(eq(farmSettings.key, key)).run()
    for (const key of changed) {
      const value = stored.get(key)
      if (value === undefined) tx.delete(farmSettings).where(eq(farmSettings.key, key)).run()
      else
        tx.insert(farmSettings)
          .values({ key, value, changedAt: at })
          .onConflictDoUpdate({ target: farmSettings.key, set: { value, changedAt: at } })
          .run()
    }
  })
}

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
  const { fromEnvironment, lockOf, locked } = environmentLocks(env)

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

  const environmentWith = (stored: Map<string, string>) => environmentAndStored(env, stored, locked)

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
    asked: AskedChange,
  ):
    | { ok: true; config: Config; stored: Map<string, string>; change: SettingsChange }
    | { ok: false; refusal: SettingsRefusal } {
    const wanted: AskedChange = { ...asked }
    // A webhook without an address is none: its secret and its spam choice go with it.
    if (asked.WEBHOOK_URL === null || (typeof asked.WEBHOOK_URL === 'string' && !asked.WEBHOOK_URL.trim())) {
      for (const key of ['WEBHOOK_SECRET', 'WEBHOOK_INCLUDE_SPAM']) if (!locked(key)) wanted[key] = null
    }
    const sent = readChange(wanted)
    if (!sent.ok) return { ok: false, refusal: noSuchSetting(sent.unknown) }
    const refusal = refusalOfLocked(Object.keys(asked), { locked, lockOf })
    if (refusal) return { ok: false, refusal }
    const { change, problems } = sent
    const stored = storedRows()
    const next = new Map(stored)
    for (const [key, raw] of Object.entries(change)) {
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
      asked: AskedChange,
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
        await writes.whenFree(() => keep(db, { changed, leftAside, stored: checked.stored, at }))
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
      return fieldStates({ stored: storedRows(), fromEnvironment, lockOf, defaults })
    },
  }
}

export type Settings<Config = unknown> = ReturnType<typeof createSettings<Config>>
