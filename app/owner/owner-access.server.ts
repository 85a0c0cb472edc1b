import { and, asc, eq, isNull } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { createWrites, type Writes } from '#app/data/writes.server'
import { activity, ownerPassword, sessions, team } from '#app/data/schema'
import type { Log } from '#app/log'
import type { OwnerAccess, OwnerPass, TeamMember } from './access-basics.server'
import { createOpenInbox } from './open-inbox.server'
import { createOwnerSessions } from './owner-sessions.server'
import { createPasswordSignIn } from './password-sign-in.server'
import { checkPassword, hashPassword, passwordProblem } from './passwords.server'

export {
  sha256,
  tokenShape,
  type Opening,
  type OwnerAccess,
  type OwnerPass,
  type SignIn,
  type TeamMember,
} from './access-basics.server'

/** Whoever opens an open inbox. */
const anyone: TeamMember = { id: null, name: 'Anyone (the inbox is open)', role: 'owner' }

interface Options {
  db: FarmDatabase
  password: string | undefined
  /** Signs the cookie as well, when set; the session id alone is already unguessable. */
  sessionSecret: string | undefined
  writes?: Writes
  now?: () => number
  log?: Log
}

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
      'the site is not claimed (no one of the team can sign in, no OWNER_PASSWORD): anyone can read the leads at /farm-sales; claim it at /claim on this machine, or run `npm run claim` (in a container: `docker exec <container> npm run claim`) for a one-time link',
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
  const sessions = createOwnerSessions({ db, writes, sessionSecret, now })
  const inbox = createOpenInbox({ db, ended: sessions.ended })
  const everyone: OwnerPass = { who: anyone, session: null, expiresAt: Number.POSITIVE_INFINITY }
  return {
    get required() {
      return inbox.required
    },
    async passFor(cookieHeader) {
      if (!inbox.required) return everyone
      return sessions.passFor(cookieHeader)
    },
    onSignOut: sessions.onSignOut,
    openSession: sessions.openSession,
    signOut: sessions.signOut,
    endSessionsOf: (memberId) => sessions.endSessionsOf(memberId),
    ...createPasswordSignIn({ db, writes, sessions, closeTheOpenInbox: inbox.closeTheOpenInbox, now }),
    recount: inbox.recount,
  }
}
