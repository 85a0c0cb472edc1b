import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { createCookie } from '@remix-run/node'
import { eq, isNotNull, isNull, lt, or } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { createWrites, type Writes } from '#app/data/writes.server'
import type { Log } from '#app/log'
import type { TeamRole } from '#app/data/enums'
import { ownerPassword, sessions, team } from '#app/data/schema'

const sessionMs = 30 * 24 * 60 * 60 * 1000
const owner = 1
const hashBytes = 32
const sessionIdShape = /^[A-Za-z0-9_-]{43}$/

/** A person of the farm's team, as every action they take records them. */
export interface TeamMember {
  /** Null for anyone at all: the inbox is open (no OWNER_PASSWORD), so no one in particular acted. */
  id: number | null
  name: string
  role: TeamRole
}

/** Who is let in, by which session (its id's hash, never the id), and until when. */
export interface OwnerPass {
  who: TeamMember
  /** Null when no password is set and everyone is let in. */
  session: string | null
  expiresAt: number
}

/** Whoever opens an open inbox. */
const anyone: TeamMember = { id: null, name: 'Anyone (the inbox is open)', role: 'owner' }

export interface OwnerAccess {
  /** Whether the inbox is behind a password at all (OWNER_PASSWORD set). */
  required: boolean
  /** The live session the request's cookies name, or null. Everyone's, when no password is set. */
  passFor(cookieHeader: string | null | undefined): Promise<OwnerPass | null>
  /** Calls back with each session that signs out, so what it opened (a live socket) closes too. */
  onSignOut(listener: (session: string) => void): void
  /** For the right password, a new session and the Set-Cookie value that holds it; otherwise null. */
  signIn(password: string, cookie: { secure: boolean }): Promise<string | null>
  /** Ends the session the cookies name, on the server too, and clears the cookie. */
  signOut(cookieHeader: string | null | undefined, cookie: { secure: boolean }): Promise<string>
}

interface Options {
  db: FarmDatabase
  password: string | undefined
  /** Signs the cookie as well, when set; the session id alone is already unguessable. */
  sessionSecret: string | undefined
  writes?: Writes
  now?: () => number
}

/** scrypt off the event loop (libuv's pool), with Node's default cost. */
function scryptHash(password: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, hashBytes, (error, key) => (error ? reject(error) : resolve(key))),
  )
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url')

/**
 * The password's salted scrypt hash, kept in memory for sign-ins. A password other than
 * the one the stored hash was made from ends every session and replaces the hash.
 */
async function rememberPassword(db: FarmDatabase, password: string, at: Date) {
  const stored = db.select().from(ownerPassword).where(eq(ownerPassword.id, 1)).get()
  if (stored) {
    const hash = await scryptHash(password, stored.salt)
    if (timingSafeEqual(hash, Buffer.from(stored.hash, 'base64'))) return { salt: stored.salt, hash }
  }
  const salt = randomBytes(16).toString('base64')
  const hash = await scryptHash(password, salt)
  const row = { id: 1, salt, hash: hash.toString('base64') }
  db.transaction((tx) => {
    tx.update(sessions).set({ revokedAt: at }).where(isNull(sessions.revokedAt)).run()
    tx.insert(ownerPassword).values(row).onConflictDoUpdate({ target: ownerPassword.id, set: row }).run()
  })
  return { salt, hash }
}

/**
 * The owner's access as the site runs it: from here on the password lives only as its scrypt hash,
 * so child processes and workers never see it; an open inbox in production is said once.
 */
export async function openOwnerAccess(options: Options & { production: boolean; log: Log }): Promise<OwnerAccess> {
  const access = await createOwnerAccess(options)
  delete process.env.OWNER_PASSWORD
  if (!access.required && options.production) {
    options.log.warn({}, 'OWNER_PASSWORD is not set: anyone can read the submissions at /farm-sales')
  }
  return access
}

export async function createOwnerAccess({
  db,
  password,
  sessionSecret,
  writes = createWrites(),
  now = Date.now,
}: Options): Promise<OwnerAccess> {
  if (!password) {
    const everyone: OwnerPass = { who: anyone, session: null, expiresAt: Number.POSITIVE_INFINITY }
    return {
      required: false,
      passFor: async () => everyone,
      onSignOut() {},
      signIn: async () => null,
      signOut: async () => '',
    }
  }
  const known = await rememberPassword(db, password, new Date(now()))
  const cookie = createCookie('farm_owner', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: sessionMs / 1000,
    secrets: sessionSecret ? [sessionSecret] : [],
  })

  async function sessionId(cookieHeader: string | null | undefined): Promise<string | null> {
    const value: unknown = await cookie.parse(cookieHeader ?? null)
    return typeof value === 'string' && sessionIdShape.test(value) ? value : null
  }

  const signedOut = new Set<(session: string) => void>()

  return {
    required: true,
    async passFor(cookieHeader) {
      const id = await sessionId(cookieHeader)
      if (!id) return null
      const found = db
        .select({ session: sessions, who: { id: team.id, name: team.name, role: team.role } })
        .from(sessions)
        .innerJoin(team, eq(team.id, sessions.memberId))
        .where(eq(sessions.idHash, sha256(id)))
        .get()
      if (!found) return null
      const { session, who } = found
      if (session.revokedAt !== null || session.expiresAt.getTime() <= now()) return null
      return { who, session: session.idHash, expiresAt: session.expiresAt.getTime() }
    },
    onSignOut(listener) {
      signedOut.add(listener)
    },
    async signIn(attempt, { secure }) {
      if (!timingSafeEqual(await scryptHash(attempt, known.salt), known.hash)) return null
      const at = new Date(now())
      const id = randomBytes(32).toString('base64url')
      await writes.whenFree(() =>
        db.transaction((tx) => {
          // The table only ever holds the owner's few live sessions.
          tx.delete(sessions)
            .where(or(lt(sessions.expiresAt, at), isNotNull(sessions.revokedAt)))
            .run()
          // The password is the owner's: the team's first person, made by drizzle/0016.
          tx.insert(sessions)
            .values({
              idHash: sha256(id),
              createdAt: at,
              expiresAt: new Date(at.getTime() + sessionMs),
              memberId: owner,
            })
            .run()
        }),
      )
      return cookie.serialize(id, { secure })
    },
    async signOut(cookieHeader, { secure }) {
      const id = await sessionId(cookieHeader)
      if (id) {
        const session = sha256(id)
        await writes.whenFree(() =>
          db
            .update(sessions)
            .set({ revokedAt: new Date(now()) })
            .where(eq(sessions.idHash, session))
            .run(),
        )
        for (const listener of signedOut) listener(session)
      }
      return cookie.serialize('', { secure, maxAge: 0 })
    },
  }
}
