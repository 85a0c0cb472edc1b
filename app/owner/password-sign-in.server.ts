import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import { team } from '#app/data/schema'
import { createRateLimit, visitorKey } from '#app/limits/rate-limit.server'
import type { OwnerAccess } from './access-basics.server'
import type { OwnerSessions } from './owner-sessions.server'
import { checkPassword, hashPassword, passwordProblem } from './passwords.server'

const longestEmail = 254

/** Signing in with an address and password, checking one's own password, and setting a new one. */
export function createPasswordSignIn({
  db,
  writes,
  sessions,
  closeTheOpenInbox,
  now,
}: {
  db: FarmDatabase
  writes: Writes
  sessions: Pick<OwnerSessions, 'openSession' | 'endSessionsOf'>
  /** Someone has a password now: the inbox asks everyone to sign in. */
  closeTheOpenInbox: () => void
  now: () => number
}): Pick<OwnerAccess, 'signIn' | 'checkOwnPassword' | 'setPassword'> {
  // Wrong passwords only, per account: 10 in 15 minutes from one address, 50 from all. Past that the
  // account's password waits out the window from anywhere (a passkey still signs in): a stranger can
  // slow an account, never guess past it. Every attempt, per address: context.limits.signIns.
  const window = { windowMs: 15 * 60_000, now }
  const wrongHere = createRateLimit({ limit: 10, ...window })
  const wrongAnywhere = createRateLimit({ limit: 50, ...window })
  /** The same two windows wherever a password is judged: signing in, and adding a passkey. */
  const wrongPasswords = (account: string, address: string) => {
    const here = `${account} from ${visitorKey(address)}`
    return {
      spent: () => (wrongHere.spent(here).ok ? wrongAnywhere.spent(account) : wrongHere.spent(here)),
      wrong: () => {
        wrongHere.take(here)
        wrongAnywhere.take(account)
      },
    }
  }

  return {
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
      const judged = wrongPasswords(person ? `member:${person.id}` : `address:${address}`, opening.address ?? '')
      const spent = judged.spent()
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
        judged.wrong()
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
        cookie: await sessions.openSession(person.id, opening),
        who: { id: person.id, name: person.name, role: person.role },
      }
    },

    async checkOwnPassword(memberId, password, address) {
      const judged = wrongPasswords(`member:${memberId}`, address)
      if (!judged.spent().ok) return 'too-many'
      const hash = db.select({ hash: team.passwordHash }).from(team).where(eq(team.id, memberId)).get()?.hash ?? null
      if ((await checkPassword(password, hash)).right) return 'right'
      judged.wrong()
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
      await sessions.endSessionsOf(memberId, keep)
      closeTheOpenInbox()
      return null
    },
  }
}
