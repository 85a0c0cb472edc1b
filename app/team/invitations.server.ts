import { and, count, eq, isNull } from 'drizzle-orm'
import { teamRoles } from '#app/data/enums'
import { invitations, team, type TeamRow } from '#app/data/schema'
import { deliveryRecord } from '#app/delivery/record.server'
import { sha256, type TeamMember } from '#app/owner/owner-access.server'
import {
  active,
  newToken,
  onTeam,
  personOf,
  readEmail,
  readName,
  teamLimits,
  type Person,
  type TeamNeeds,
} from './on-the-team.server'
import { refuse, type Answer } from '#app/http/refusal.server'

const dayMs = 24 * 60 * 60 * 1000
export const invitationDays = 7

/** Inviting people to the team: a first link, or a new one for someone still invited. */
export function createInvitations({ db, writes, activity, mails, owed, now }: TeamNeeds) {
  return {
    /**
     * Adds a person and gives back their invitation's link token: it sets their password, once,
     * within 7 days. Refused for an address already on the team, or past 50 people.
     */
    async invite(
      given: { name: string; email: string; role: string },
      by: TeamMember,
      address: string,
      linkOf: (token: string) => string,
    ): Promise<Answer<{ token: string; person: Person; expiresAt: number; mailed: boolean }>> {
      const name = readName(given.name)
      if (typeof name !== 'string') return name
      const email = readEmail(given.email, 'their')
      if (typeof email !== 'string') return email
      if (!email) return refuse(400, 'Enter their email address, like ann@example.com.', 'email')
      const role = teamRoles.find((known) => known === given.role)
      if (!role) return refuse(400, 'Choose a role: owner or helper.', 'role')
      const token = newToken()
      const at = new Date(now())
      const expiresAt = new Date(at.getTime() + invitationDays * dayMs)
      const made = await writes.whenFree(() =>
        db.transaction((tx): Answer<{ person: TeamRow; mailed: boolean }> => {
          if (
            tx
              .select({ id: team.id })
              .from(team)
              .where(and(onTeam, eq(team.email, email)))
              .get()
          ) {
            return refuse(409, `${email} is already on the team.`, 'email')
          }
          const [people] = tx.select({ n: count() }).from(team).where(onTeam).all()
          if ((people?.n ?? 0) >= teamLimits.people) {
            return refuse(409, `The team has ${teamLimits.people} people already: remove someone first.`)
          }
          const person = tx.insert(team).values({ name, email, role, createdAt: at }).returning().get()
          tx.insert(invitations)
            .values({ tokenHash: sha256(token), memberId: person.id, createdAt: at, expiresAt, invitedBy: by.id })
            .run()
          const mailed = mails.oweIn(tx, person.id, sha256(token), linkOf(token), at)
          activity.recordIn(tx, {
            kind: 'person-invited',
            by: by.id,
            detail: `Invited ${name} as ${role === 'owner' ? 'an owner' : 'a helper'}`,
            address,
          })
          return { ok: true, person, mailed }
        }),
      )
      if (!made.ok) return made
      if (made.mailed) owed()
      return {
        ok: true,
        token,
        person: personOf(made.person, 0, 0),
        expiresAt: expiresAt.getTime(),
        mailed: made.mailed,
      }
    },

    /** A new link for someone still invited; the links before it stop working. */
    async inviteAgain(
      id: number,
      by: TeamMember,
      address: string,
      linkOf: (token: string) => string,
    ): Promise<Answer<{ token: string; expiresAt: number; name: string; mailed: string | null }>> {
      const token = newToken()
      const at = new Date(now())
      const expiresAt = new Date(at.getTime() + invitationDays * dayMs)
      const made = await writes.whenFree(() =>
        db.transaction((tx): Answer<{ token: string; expiresAt: number; name: string; mailed: string | null }> => {
          const person = active(tx, id)
          if (!person) return refuse(404, 'That person is not on the team.')
          if (person.joinedAt) return refuse(409, `${person.name} has joined already.`)
          // The links before stop working, and a mail of one not sent yet goes with it.
          tx.update(invitations)
            .set({ usedAt: at, mailLink: null })
            .where(and(eq(invitations.memberId, id), isNull(invitations.usedAt)))
            .run()
          deliveryRecord(tx).replaced({ kind: 'invitation-mail', memberId: id }, 'A new invitation link replaced it')
          tx.insert(invitations)
            .values({ tokenHash: sha256(token), memberId: id, createdAt: at, expiresAt, invitedBy: by.id })
            .run()
          const mailed = mails.oweIn(tx, id, sha256(token), linkOf(token), at)
          activity.recordIn(tx, {
            kind: 'person-invited',
            by: by.id,
            detail: `Made a new invitation link for ${person.name}`,
            address,
          })
          return {
            ok: true,
            token,
            expiresAt: expiresAt.getTime(),
            name: person.name,
            mailed: mailed ? person.email : null,
          }
        }),
      )
      if (made.ok && made.mailed) owed()
      return made
    },
  }
}
