import { createHash, randomBytes } from 'node:crypto'
import { createCookie } from '@remix-run/node'
import { and, asc, eq, exists, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { createWrites, type Writes } from '#app/data/writes.server'
import type { TeamRole } from '#app/data/enums'
import { activity, ownerPassword, passkeys, sessions, team } from '#app/data/schema'
import { createRateLimit, visitorKey } from '#app/limits/rate-limit.server'
import type { Log } from '#app/log'
import { checkPassword, hashPassword, passwordProblem } from './passwords.server'

const sessionMs = 30 * 24 * 60 * 60 * 1000
/** A random id of 32 bytes in base64url, as sessions, invitations and set-up links are made. */
export const tokenShape = /^[A-Za-z0-9_-]{43}$/
const longestEmail = 254

/** A person of the farm’s team, as every action they take records them. */
export interface TeamMember {
  /** Null for anyone at all: the inbox is open (no one has a way to sign in), so no one in particular acted. */
  id: number | null
  name: string
  role: TeamRole
}

/** Who is let in, by which session (its id's hash, never the id), and until when. */
export interface OwnerPass {
  who: TeamMember
  /** Null when the inbox is open and everyone is let in. */
  session: string | null
  expiresAt: number
}

/** Whoever opens an open inbox. */
const anyone: TeamMember = { id: null, name: 'Anyone (the inbox is open)', role: 'owner' }

export type SignIn =
  | { ok: true; cookie: string; who: TeamMember }
  | { ok: false; status: 401 | 429; error: string; retryAfterSeconds?: number; memberId: number | null }

/** The request a session is opened for: over HTTPS or not (the cookie's Secure), and the session it replaces. */
export interface Opening {
  secure: boolean
  cookieHeader: string | null
  /** Where the request came from: wrong passwords are counted per account and address. */
  address?: string
}

export interface OwnerAccess {
  /** Whether the inbox is behind a sign-in: someone of the team has a password or a passkey. */
  readonly required: boolean
  /** The live session the request's cookies name, or null. Everyone's, while the inbox is open. */
  passFor(cookieHeader: string | null | undefined): Promise<OwnerPass | null>
  /**
   * Calls back with each session that ends, so what it opened (a live socket) closes too; with
   * null when the open inbox closes (someone can sign in now), for what anyone opened in it.
   */
  onSignOut(listener: (session: string | null) => void): void
  /**
   * A new session for the right address and password (an empty address: the first owner, made
   * from OWNER_PASSWORD, who has not given one), ending the one the request came with.
   */
  signIn(attempt: { email: string; password: string }, opening: Opening): Promise<SignIn>
  /** A new session for someone already proven (a passkey, an invitation taken), ending the request's. */
  openSession(memberId: number, opening: Opening): Promise<string>
  /** Ends the session the cookies name, on the server too, and clears the cookie. */
  signOut(cookieHeader: string | null | undefined, cookie: { secure: boolean }): Promise<string>
  /** Ends every session of theirs (sign out everywhere, removed, a new role); their sockets close. */
  endSessionsOf(memberId: number): Promise<number>
  /** Whether this is their password now, counted as a sign-in's wrong passwords are. */
  checkOwnPassword(memberId: number, password: string, address: string): Promise<'right' | 'wrong' | 'too-many'>
  /** Their new password, or why it is refused; their other sessions end. */
  setPassword(memberId: number, password: string, keep?: string | null): Promise<string | null>
  /** After someone gained or lost their way in: whether the inbox is behind a sign-in now. */
  recount(): void
}

interface Options {
  db: FarmDatabase
  password: string | undefined
  /** Signs the cookie as well, when set; the session id alone is already unguessable. */
  sessionSecret: string | undefined
  writes?: Writes
  now?: () => number
  log?: Log
}

/** What is kept of a token (a session's, an invitation's): its SHA-256, so a copy of the database opens nothing. */
export const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url')

/**
 * OWNER_PASSWORD is the first owner's way in: applied when it differs from the one last applied
 * (kept as a hash, with whom it was applied to), so a person's own new password stands until the
 * deployer sets another, which is then a way back in that ends their sessions. Only ever for that
 * person, while they are an owner on the team; on a new site, for the owner drizzle/0016 made.
 * Answers what it did, for the log.
 */
async function applyOwnerPassword(
  db: FarmDatabase,
  password: string,
  at: Date,
): Promise<'unchanged' | 'applied' | 'reset' | 'no-owner'> {
  const last = db.select().from(ownerPassword).where(eq(ownerPassword.id, 1)).get()
  const lastHash = last
    ? last.hash.startsWith('scrypt$')
      ? last.hash
      : `scrypt$16384$8$1$${last.salt}$${last.hash}`
    : null
  const whose = last ? last.memberId : db.select({ id: team.id }).from(team).orderBy(asc(team.id)).limit(1).get()?.id
  const owner =
    whose === null || whose === undefined
      ? undefined
      : db
          .select()
          .from(team)
          .where(and(eq(team.id, whose), eq(team.role, 'owner'), isNull(team.removedAt)))
          .get()
  if (!owner) return 'no-owner'
  if ((await checkPassword(password, lastHash)).right && owner.passwordHash !== null) return 'unchanged'
  const hash = await hashPassword(password)
  const reset = owner.passwordHash !== null
  db.transaction((tx) => {
    tx.update(sessions)
      .set({ revokedAt: at })
      .where(and(eq(sessions.memberId, owner.id), isNull(sessions.revokedAt)))
      .run()
    tx.update(team)
      .set({ passwordHash: hash, joinedAt: owner.joinedAt ?? at })
      .where(eq(team.id, owner.id))
      .run()
    const row = { id: 1, salt: '', hash, memberId: owner.id }
    tx.insert(ownerPassword).values(row).onConflictDoUpdate({ target: ownerPassword.id, set: row }).run()
    if (reset) {
      tx.insert(activity)
        .values({
          at,
          kind: 'password-reset',
          memberId: owner.id,
          detail: `A new OWNER_PASSWORD reset ${owner.name}’s password`,
        })
        .run()
    }
  })
  return reset ? 'reset' : 'applied'
}

/**
 * The team's access as the site runs it: from here on OWNER_PASSWORD lives only as its scrypt hash,
 * so child processes and workers never see it; an open inbox in production is said once.
 */
export async function openOwnerAccess(options: Options & { production: boolean }): Promise<OwnerAccess> {
  if (options.password !== undefined && passwordProblem(options.password, {}) !== null) {
    options.log?.warn(
      {},
      'OWNER_PASSWORD is short or common: sign in and set a password of your own (12 characters or more) on your page',
    )
  }
  const access = await createOwnerAccess(options)
  delete process.env.OWNER_PASSWORD
  if (options.password === undefined && access.required) {
    // An upgraded site that once had OWNER_PASSWORD: its first owner keeps it as their password.
    options.log?.info(
      {},
      'the inbox asks everyone to sign in: the team has people; the first owner’s password is the OWNER_PASSWORD last set unless they changed it (set OWNER_PASSWORD again for a way back in)',
    )
  }
  if (!access.required && options.production) {
    options.log?.warn(
      {},
      'no one of the team can sign in (no OWNER_PASSWORD): anyone can read the submissions at /farm-sales; open it from this machine for a link that makes the first owner',
    )
  }
  return access
}

export async function createOwnerAccess({
  db,
  password,
  sessionSecret,
  writes = createWrites(),
  now = Date.now,
  log,
}: Options): Promise<OwnerAccess> {
  if (password && (await applyOwnerPassword(db, password, new Date(now()))) === 'no-owner') {
    log?.warn({}, 'OWNER_PASSWORD is set, but whom it was for is no longer an owner on the team: it lets no one in')
  }
  const cookie = createCookie('farm_owner', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: sessionMs / 1000,
    secrets: sessionSecret ? [sessionSecret] : [],
  })
  // Wrong passwords only, per account: 10 in 15 minutes from one address, 50 from all. Past that the
  // account's password waits out the window from anywhere (a passkey still signs in): a stranger can
  // slow an account, never guess past it. Every attempt, per address: context.limits.signIns.
  const window = { windowMs: 15 * 60_000, now }
  const wrongHere = createRateLimit({ limit: 10, ...window })
  const wrongAnywhere = createRateLimit({ limit: 50, ...window })
  const everyone: OwnerPass = { who: anyone, session: null, expiresAt: Number.POSITIVE_INFINITY }

  const canSignIn = db
    .select({ id: team.id })
    .from(team)
    .where(
      and(
        isNull(team.removedAt),
        or(isNotNull(team.passwordHash), exists(db.select().from(passkeys).where(eq(passkeys.memberId, team.id)))),
      ),
    )
    .limit(1)
    .prepare()
  let required = canSignIn.get() !== undefined

  async function sessionId(cookieHeader: string | null | undefined): Promise<string | null> {
    const value: unknown = await cookie.parse(cookieHeader ?? null)
    return typeof value === 'string' && tokenShape.test(value) ? value : null
  }

  const signedOut = new Set<(session: string | null) => void>()
  const ended = (ids: Array<string | null>) => {
    for (const id of ids) for (const listener of signedOut) listener(id)
  }

  async function openSession(memberId: number, { secure, cookieHeader }: Opening) {
    const at = new Date(now())
    const id = randomBytes(32).toString('base64url')
    const previous = await sessionId(cookieHeader)
    await writes.whenFree(() =>
      db.transaction((tx) => {
        // The table only holds the team's few live sessions.
        tx.delete(sessions)
          .where(or(lt(sessions.expiresAt, at), isNotNull(sessions.revokedAt)))
          .run()
        // A session id is never kept across a sign-in: one planted before it is worth nothing after.
        if (previous)
          tx.delete(sessions)
            .where(eq(sessions.idHash, sha256(previous)))
            .run()
        // Removed while their password or passkey was being checked: no session.
        if (
          !tx
            .select({ id: team.id })
            .from(team)
            .where(and(eq(team.id, memberId), isNull(team.removedAt)))
            .get()
        ) {
          throw new Error('That person is no longer on the team.')
        }
        tx.insert(sessions)
          .values({ idHash: sha256(id), createdAt: at, expiresAt: new Date(at.getTime() + sessionMs), memberId })
          .run()
      }),
    )
    if (previous) ended([sha256(previous)])
    return cookie.serialize(id, { secure })
  }

  /** Someone can sign in now: whatever anyone opened while the inbox was open (a live socket) closes. */
  function closeTheOpenInbox() {
    if (required) return
    required = true
    ended([null])
  }

  async function endSessionsOf(memberId: number, keep: string | null = null) {
    const gone = await writes.whenFree(() =>
      db
        .update(sessions)
        .set({ revokedAt: new Date(now()) })
        .where(
          and(
            eq(sessions.memberId, memberId),
            isNull(sessions.revokedAt),
            keep ? sql`${sessions.idHash} <> ${keep}` : undefined,
          ),
        )
        .returning({ id: sessions.idHash })
        .all(),
    )
    ended(gone.map((row) => row.id))
    return gone.length
  }

  return {
    get required() {
      return required
    },
    async passFor(cookieHeader) {
      if (!required) return everyone
      const id = await sessionId(cookieHeader)
      if (!id) return null
      const found = db
        .select({ session: sessions, who: { id: team.id, name: team.name, role: team.role } })
        .from(sessions)
        .innerJoin(team, and(eq(team.id, sessions.memberId), isNull(team.removedAt)))
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
    async signIn({ email, password }, opening) {
      const address = email.trim().toLowerCase().slice(0, longestEmail)
      const person = db
        .select()
        .from(team)
        .where(
          and(
            address ? eq(team.email, address) : isNull(team.email),
            isNull(team.removedAt),
            isNotNull(team.passwordHash),
          ),
        )
        .orderBy(asc(team.id))
        .get()
      const account = person ? `member:${person.id}` : `address:${address}`
      const here = `${account} from ${visitorKey(opening.address ?? '')}`
      const spent = wrongHere.spent(here).ok ? wrongAnywhere.spent(account) : wrongHere.spent(here)
      if (!spent.ok) {
        return {
          ok: false,
          status: 429,
          error: 'Too many wrong passwords for this account. Wait a while, or sign in with a passkey.',
          retryAfterSeconds: spent.retryAfterSeconds,
          memberId: person?.id ?? null,
        }
      }
      const checked = await checkPassword(password, person?.passwordHash ?? null)
      if (!person || !checked.right) {
        wrongHere.take(here)
        wrongAnywhere.take(account)
        return {
          ok: false,
          status: 401,
          error: address ? 'That address and password do not match.' : 'That password is not right.',
          memberId: person?.id ?? null,
        }
      }
      if (checked.again) {
        const hash = await hashPassword(password)
        await writes.whenFree(() => db.update(team).set({ passwordHash: hash }).where(eq(team.id, person.id)).run())
      }
      return {
        ok: true,
        cookie: await openSession(person.id, opening),
        who: { id: person.id, name: person.name, role: person.role },
      }
    },
    openSession,
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
        ended([session])
      }
      return cookie.serialize('', { secure, maxAge: 0 })
    },
    endSessionsOf: (memberId) => endSessionsOf(memberId),
    async checkOwnPassword(memberId, password, address) {
      const here = `member:${memberId} from ${visitorKey(address)}`
      if (!wrongHere.spent(here).ok) return 'too-many'
      const hash = db.select({ hash: team.passwordHash }).from(team).where(eq(team.id, memberId)).get()?.hash ?? null
      if ((await checkPassword(password, hash)).right) return 'right'
      wrongHere.take(here)
      return 'wrong'
    },
    async setPassword(memberId, password, keep = null) {
      const person = db.select().from(team).where(eq(team.id, memberId)).get()
      if (!person) return 'That person is not on the team.'
      const problem = passwordProblem(password, person)
      if (problem) return problem
      const hash = await hashPassword(password)
      await writes.whenFree(() =>
        db
          .update(team)
          .set({ passwordHash: hash, joinedAt: person.joinedAt ?? new Date(now()) })
          .where(eq(team.id, memberId))
          .run(),
      )
      await endSessionsOf(memberId, keep)
      closeTheOpenInbox()
      return null
    },
    recount() {
      if (canSignIn.get() !== undefined) closeTheOpenInbox()
      else required = false
    },
  }
}
