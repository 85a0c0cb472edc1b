import { and, eq, gt, isNull } from 'drizzle-orm'
import type { TeamRole } from '#app/data/enums'
import { invitations, team } from '#app/data/schema'
import { sha256, tokenShape, type Opening } from '#app/owner/owner-access.server'
import { passwordProblem } from '#app/owner/passwords.server'
import { invitationDays } from './invitations.server'
import { type TeamNeeds } from './on-the-team.server'
import { refuse, type Answer } from '#app/http/refusal.server'

/** Someone invited taking their invitation's link: their password set, and they are on the team. */
export function createJoining({ db, writes, access, activity, now }: TeamNeeds) {
  /** Whom an invitation link is for, or why it no longer works. */
  function invitation(token: string): Answer<{ name: string; email: string; role: TeamRole }> {
    if (!tokenShape.test(token)) return refuse(404, 'That invitation link is not one the site made.')
    const found = db
      .select({ invitation: invitations, person: team })
      .from(invitations)
      .innerJoin(team, eq(team.id, invitations.memberId))
      .where(eq(invitations.tokenHash, sha256(token)))
      .get()
    if (!found || found.person.removedAt) return refuse(404, 'That invitation link is not one the site made.')
    if (found.invitation.usedAt || found.person.joinedAt) {
      return refuse(410, 'That invitation link has been used. Sign in instead, or ask an owner for a new one.')
    }
    if (found.invitation.expiresAt.getTime() <= now()) {
      return refuse(410, `That invitation link is more than ${invitationDays} days old. Ask an owner for a new one.`)
    }
    return { ok: true, name: found.person.name, email: found.person.email ?? '', role: found.person.role }
  }

  return {
    invitation,

    /** Takes an invitation: their password set, the link used up, and a session for them. */
    async join(
      token: string,
      password: string,
      opening: Opening,
      address: string,
    ): Promise<Answer<{ cookie: string }>> {
      const invited = invitation(token)
      if (!invited.ok) return invited
      const problem = passwordProblem(password, invited)
      if (problem) return refuse(400, problem, 'password')
      const taken = await writes.whenFree(() =>
        db.transaction((tx) => {
          const used = tx
            .update(invitations)
            .set({ usedAt: new Date(now()), mailLink: null })
            .where(
              and(
                eq(invitations.tokenHash, sha256(token)),
                isNull(invitations.usedAt),
                gt(invitations.expiresAt, new Date(now())),
              ),
            )
            .returning({ memberId: invitations.memberId })
            .get()
          if (used) {
            activity.recordIn(tx, {
              kind: 'person-joined',
              by: used.memberId,
              detail: `${invited.name} joined`,
              address,
            })
          }
          return used?.memberId ?? null
        }),
      )
      if (taken === null)
        return refuse(410, 'That invitation link has been used. Sign in instead, or ask an owner for a new one.')
      const problemAgain = await access.setPassword(taken, password)
      if (problemAgain) return refuse(400, problemAgain, 'password')
      return { ok: true, cookie: await access.openSession(taken, opening) }
    },
  }
}
