import { and, eq, exists, isNotNull, isNull, or } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { passkeys, team } from '#app/data/schema'

/**
 * Whether the inbox is behind a sign-in: someone of the team has a password or a passkey. While no
 * one has, the inbox is open to anyone.
 */
export function createOpenInbox({
  db,
  ended,
}: {
  db: FarmDatabase
  /** Told with null when the open inbox closes, for what anyone opened in it. */
  ended: (sessions: Array<string | null>) => void
}) {
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

  /** Someone can sign in now: whatever anyone opened while the inbox was open (a live socket) closes. */
  function closeTheOpenInbox() {
    if (required) return
    required = true
    ended([null])
  }

  return {
    get required() {
      return required
    },
    closeTheOpenInbox,
    recount() {
      if (canSignIn.get() !== undefined) closeTheOpenInbox()
      else required = false
    },
  }
}
