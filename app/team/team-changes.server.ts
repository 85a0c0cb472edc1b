import { eq } from 'drizzle-orm'
import { teamRoles } from '#app/data/enums'
import { invitations, passkeys, pushSubscriptions, team } from '#app/data/schema'
import type { TeamMember } from '#app/owner/owner-access.server'
import { active, anotherOwner, endLinksMadeBy, type TeamNeeds } from './on-the-team.server'
import { refuse, type Answer } from '#app/http/refusal.server'

/** What an owner changes about someone on the team: their role, their sessions, their place on it. */
export function createTeamChanges({ db, writes, access, activity, log, now }: TeamNeeds) {
  return {
    /**
     * Takes them off the team at once: sessions, live sockets, phones, passkeys and links end, the
     * links they made for others too. Never the last owner who has joined.
     */
    async remove(id: number, by: TeamMember, address: string): Promise<Answer<object>> {
      const done = await writes.whenFree(() =>
        db.transaction((tx): Answer<object> => {
          const person = active(tx, id)
          if (!person) return refuse(404, 'That person is not on the team.')
          // Checked in the transaction that writes: two owners removing each other leave one.
          if (person.role === 'owner' && !anotherOwner(tx, id)) {
            return refuse(409, `${person.name} is the last owner: make someone else an owner first.`)
          }
          tx.update(team)
            .set({ removedAt: new Date(now()), email: null, passwordHash: null })
            .where(eq(team.id, id))
            .run()
          tx.delete(pushSubscriptions).where(eq(pushSubscriptions.memberId, id)).run()
          tx.delete(passkeys).where(eq(passkeys.memberId, id)).run()
          tx.delete(invitations).where(eq(invitations.memberId, id)).run()
          endLinksMadeBy(tx, id, new Date(now()))
          activity.recordIn(tx, { kind: 'person-removed', by: by.id, detail: `Removed ${person.name}`, address })
          return { ok: true }
        }),
      )
      if (!done.ok) return done
      await access.endSessionsOf(id)
      access.recount()
      log.info({ person: id }, 'a person was removed from the team; their sessions ended')
      return done
    },

    /** A new role, at once: their sessions end, so they sign in again as what they are now. Never the last owner. */
    async changeRole(id: number, given: string, by: TeamMember, address: string): Promise<Answer<object>> {
      const role = teamRoles.find((known) => known === given)
      if (!role) return refuse(400, 'Choose a role: owner or helper.', 'role')
      const done = await writes.whenFree(() =>
        db.transaction((tx): Answer<{ changed: boolean }> => {
          const person = active(tx, id)
          if (!person) return refuse(404, 'That person is not on the team.')
          if (person.role === role) return { ok: true, changed: false }
          if (person.role === 'owner' && !anotherOwner(tx, id)) {
            return refuse(409, `${person.name} is the last owner: make someone else an owner first.`)
          }
          tx.update(team).set({ role }).where(eq(team.id, id)).run()
          // A helper now: the owner links they made end with their owner's rights.
          if (role === 'helper') endLinksMadeBy(tx, id, new Date(now()))
          activity.recordIn(tx, {
            kind: 'role-changed',
            by: by.id,
            detail: `${person.name} is now ${role === 'owner' ? 'an owner' : 'a helper'}`,
            address,
          })
          return { ok: true, changed: true }
        }),
      )
      if (!done.ok) return done
      if (done.changed) await access.endSessionsOf(id)
      return { ok: true }
    },

    /** Ends every session of theirs, on every browser and phone, and stops pushing their phones: one may be lost. */
    async signOutEverywhere(id: number, by: TeamMember, address: string): Promise<Answer<{ ended: number }>> {
      const person = active(db, id)
      if (!person) return refuse(404, 'That person is not on the team.')
      await writes.whenFree(() =>
        db.transaction((tx) => {
          tx.delete(pushSubscriptions).where(eq(pushSubscriptions.memberId, id)).run()
          activity.recordIn(tx, {
            kind: 'signed-out-everywhere',
            by: by.id,
            detail: by.id === id ? `${person.name} signed out everywhere` : `Signed ${person.name} out everywhere`,
            address,
          })
        }),
      )
      return { ok: true, ended: await access.endSessionsOf(id) }
    },
  }
}
