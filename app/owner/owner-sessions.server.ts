import { randomBytes } from 'node:crypto'
import { createCookie } from '@remix-run/node'
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import { sessions, team } from '#app/data/schema'
import { sha256, tokenShape, type Opening, type OwnerPass } from './access-basics.server'

const sessionMs = 30 * 24 * 60 * 60 * 1000

/** The team's sessions: the cookie that names one, opening and ending them, and who is told when one ends. */
export function createOwnerSessions({
  db,
  writes,
  sessionSecret,
  now,
}: {
  db: FarmDatabase
  writes: Writes
  sessionSecret: string | undefined
  now: () => number
}) {
  const cookie = createCookie('farm_owner', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: sessionMs / 1000,
    secrets: sessionSecret ? [sessionSecret] : [],
  })

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
    /** Tells each listener of the sessions that ended (null: the open inbox closed). */
    ended,
    openSession,
    endSessionsOf,

    onSignOut(listener: (session: string | null) => void) {
      signedOut.add(listener)
    },

    /** The live session the request's cookies name, or null. */
    async passFor(cookieHeader: string | null | undefined): Promise<OwnerPass | null> {
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

    async signOut(cookieHeader: string | null | undefined, { secure }: { secure: boolean }) {
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
  }
}

export type OwnerSessions = ReturnType<typeof createOwnerSessions>
