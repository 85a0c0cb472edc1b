import { randomBytes } from 'node:crypto'
import { and, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { TeamRole } from '#app/data/enums'
import { invitations, team, type TeamRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { refuse, type Refusal } from '#app/http/refusal.server'
import { isEmailAddress } from '#app/leads/mailbox'
import type { Log } from '#app/log'
import type { OwnerAccess } from '#app/owner/owner-access.server'
import type { ActivityLog } from './activity.server'
import type { InvitationMails } from './invitation-mail.server'

export const teamLimits = { people: 50, name: 80, email: 254 }

export const newToken = () => randomBytes(32).toString('base64url')

/** What the team's parts work with. */
export interface TeamNeeds {
  db: FarmDatabase
  writes: Writes
  access: OwnerAccess
  activity: ActivityLog
  /** Each invitation mailed, while mail is set up. */
  mails: Pick<InvitationMails, 'oweIn'>
  /** After a commit that owed a mail: the delivery engine looks. */
  owed: () => void
  log: Log
  now: () => number
}

/** A person as the team page shows them. */
export interface Person {
  id: number
  name: string
  email: string | null
  role: TeamRole
  /** Null while their invitation waits. */
  joinedAt: number | null
  passkeys: number
  phones: number
}

export const onTeam = isNull(team.removedAt)

export const personOf = (row: TeamRow, passkeyCount: number, phoneCount: number): Person => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  joinedAt: row.joinedAt?.getTime() ?? null,
  passkeys: passkeyCount,
  phones: phoneCount,
})

/** The team's rows with how many passkeys and phones each has. */
export const withCounts = (db: FarmDatabase) =>
  db
    .select({
      row: team,
      passkeys: sql<number>`(SELECT count(*) FROM passkeys WHERE member_id = ${team.id})`,
      phones: sql<number>`(SELECT count(*) FROM push_subscriptions WHERE member_id = ${team.id})`,
    })
    .from(team)

/** The person with this id while they are on the team, read in `tx` when inside a transaction. */
export function active(tx: Pick<FarmDatabase, 'select'>, id: number): TeamRow | undefined {
  return tx
    .select()
    .from(team)
    .where(and(eq(team.id, id), onTeam))
    .get()
}

/** Whether anyone else is an owner who has joined: the team is never left without one. */
export function anotherOwner(tx: Pick<FarmDatabase, 'select'>, id: number) {
  return (
    tx
      .select({ id: team.id })
      .from(team)
      .where(and(onTeam, eq(team.role, 'owner'), ne(team.id, id), isNotNull(team.joinedAt)))
      .limit(1)
      .get() !== undefined
  )
}

/** The invitations someone made that are not taken yet: they stop working. */
export function endLinksMadeBy(tx: Pick<FarmDatabase, 'update'>, id: number, at: Date) {
  tx.update(invitations)
    .set({ usedAt: at, mailLink: null })
    .where(and(eq(invitations.invitedBy, id), isNull(invitations.usedAt)))
    .run()
}

/** An address as kept: trimmed, in lower case; '' stays '' for the caller to allow or not. */
export function readEmail(value: string, whose: 'their' | 'your'): string | Refusal {
  const email = value.trim().toLowerCase()
  if (email && (!isEmailAddress(email) || email.length > teamLimits.email)) {
    return refuse(400, `Enter ${whose} email address, like ann@example.com.`, 'email')
  }
  return email
}

export function readName(value: string): string | Refusal {
  const name = value.trim().replace(/\s+/g, ' ')
  if (!name) return refuse(400, 'Say what the team should call them.', 'name')
  if (name.length > teamLimits.name) return refuse(400, `Keep the name under ${teamLimits.name} characters.`, 'name')
  return name
}
