import { existsSync } from 'node:fs'
import Sqlite from 'better-sqlite3'

/** What each signing key of the site is for, as the owner would recognise it. */
const keyPurposes: Record<string, string> = {
  updates: 'the key that signs the updates’ confirm and unsubscribe links',
  vapid: 'the key pair the phones’ pushes are signed with (VAPID)',
  erasures: 'the salt of the list of forgotten people',
  'unasked-mails': 'the salt of the acknowledgements’ caps',
  'backup-bucket': 'the key the bucket’s copies of the backups are sealed with',
}

function open(path: string) {
  const db = new Sqlite(path, { readonly: true, fileMustExist: true })
  db.pragma('trusted_schema = OFF')
  return db
}

/** A text from the file, as a terminal may show it: no control characters (escape sequences), and short. */
export const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?').slice(0, 40)

const pluckAll = (db: Sqlite.Database, sql: string, ...params: unknown[]) =>
  db
    .prepare(sql)
    .pluck()
    .all(...params) as string[]

/** The host of a push service's address, never the address itself (it is the phone's secret). */
const hostOf = (endpoint: string) => {
  try {
    return new URL(endpoint).host
  } catch {
    return 'an address that is not one'
  }
}

/**
 * What installing a backup would change about who can reach the site and the people it tells:
 * the phones pushed to, the signing keys, the owner's password, the sign-ins still open and the
 * team, compared with the running site's database. Empty when nothing there differs (or there is
 * no database to compare with, a first install). The backup is stranger input: read, never run.
 */
export function whatABackupBrings(backup: string, databasePath: string, now: number): string[] {
  if (!existsSync(databasePath)) return []
  let current: Sqlite.Database
  try {
    current = open(databasePath)
    current.prepare('SELECT 1 FROM signing_keys LIMIT 1').get()
  } catch {
    return ['(the current database cannot be read, so nothing could be compared with it)']
  }
  const incoming = open(backup)
  try {
    const said: string[] = []
    const phones = (db: Sqlite.Database) => new Set(pluckAll(db, 'SELECT endpoint FROM push_subscriptions'))
    const [before, after] = [phones(current), phones(incoming)]
    const added = [...after].filter((endpoint) => !before.has(endpoint))
    const gone = [...before].filter((endpoint) => !after.has(endpoint))
    if (added.length > 0) {
      const hosts = [...new Set(added.map(hostOf))].slice(0, 5).join(', ')
      said.push(`${added.length} phone(s) pushed to that this site does not push to now (at ${hosts})`)
    }
    if (gone.length > 0) said.push(`${gone.length} phone(s) this site pushes to now would no longer be told`)

    const keys = (db: Sqlite.Database) =>
      new Map(
        (db.prepare('SELECT name, key FROM signing_keys').all() as Array<{ name: string; key: string }>).map(
          (row): [string, string] => [row.name, row.key],
        ),
      )
    const [keysBefore, keysAfter] = [keys(current), keys(incoming)]
    for (const [name, key] of keysAfter) {
      if (keysBefore.get(name) === key) continue
      said.push(`a different ${keyPurposes[name] ?? `signing key “${printable(name)}”`}`)
    }

    const password = (db: Sqlite.Database) => pluckAll(db, 'SELECT hash FROM owner_password')[0] ?? null
    if (password(incoming) !== password(current)) said.push('a different owner’s password')

    const openSessions = (db: Sqlite.Database) =>
      new Set(pluckAll(db, 'SELECT id_hash FROM sessions WHERE revoked_at IS NULL AND expires_at > ?', now))
    const stillOpen = openSessions(current)
    const reopened = [...openSessions(incoming)].filter((session) => !stillOpen.has(session)).length
    if (reopened > 0) said.push(`${reopened} sign-in(s) that are ended here would be open again`)

    // Those on the team there: someone removed here since, or with another role, is one this site does not have.
    const people = (db: Sqlite.Database) =>
      pluckAll(db, "SELECT name || ' (' || role || ')' FROM team WHERE removed_at IS NULL ORDER BY id").map(printable)
    const [teamBefore, teamAfter] = [people(current), people(incoming)]
    const newcomers = teamAfter.filter((person) => !teamBefore.includes(person))
    if (newcomers.length > 0)
      said.push(`people of the team this site does not have: ${newcomers.slice(0, 5).join(', ')}`)
    // A way in there that is not one here: a password changed since, a passkey removed since.
    const waysIn = (db: Sqlite.Database) =>
      new Set([
        ...pluckAll(
          db,
          "SELECT id || ':' || password_hash FROM team WHERE removed_at IS NULL AND password_hash IS NOT NULL",
        ),
        ...pluckAll(db, "SELECT member_id || ':' || id FROM passkeys"),
      ])
    const waysInHere = waysIn(current)
    const otherWays = [...waysIn(incoming)].filter((way) => !waysInHere.has(way)).length
    if (otherWays > 0) said.push(`${otherWays} password(s) or passkey(s) of the team this site does not have`)
    return said
  } finally {
    incoming.close()
    current.close()
  }
}
