import { and, asc, eq, isNotNull } from 'drizzle-orm'
import { team } from '#app/data/schema'
import type { Opening } from '#app/owner/owner-access.server'
import { hashPassword, passwordProblem } from '#app/owner/passwords.server'
import { onTeam, readEmail, readName, type TeamNeeds } from './on-the-team.server'
import { refuse, type Answer } from '#app/http/refusal.server'
import { createClaimLinks } from './claim-link.server'
import { claimCommand } from './claim-command.server'
import { fromThisMachine } from '#app/owner/request-security'
import type { ClaimWayHere } from './claim-note'

/** How whoever claims the site shows it is theirs: the one-time link `npm run claim` printed, or a look from the machine itself. */
export type ClaimWay = { link: string } | { thisMachine: true }

const linkGone = 'That link has been used or is more than an hour old.'

/** Claiming the site while no one of the team can sign in: its first owner's name, address and password. */
export function createFirstOwner({ db, writes, access, activity, now }: TeamNeeds) {
  const links = createClaimLinks(db, now)
  const command = claimCommand()

  /** Whether this way may still claim the site: no one can sign in yet, and a link is the newest printed, within its hour. */
  function claimOpen(way: ClaimWay): boolean {
    if (access.required) return false
    return 'thisMachine' in way || links.good(way.link)
  }

  return {
    claimOpen,

    /** How whoever sent this request can claim the site, or null once it is claimed. */
    claimWayFor(request: Request, clientAddress: string): ClaimWayHere | null {
      if (access.required) return null
      return fromThisMachine(request, clientAddress) ? { here: true } : { here: false, ...command }
    },

    /** Makes the first owner: their name, address and password; a link is used up. */
    async claimSite(
      way: ClaimWay,
      given: { name: string; email: string; password: string },
      opening: Opening,
      address: string,
    ): Promise<Answer<{ cookie: string }>> {
      if (!claimOpen(way)) {
        return refuse(410, access.required ? 'The site is claimed already.' : linkGone)
      }
      const name = readName(given.name)
      if (typeof name !== 'string') return name
      const email = readEmail(given.email, 'your')
      if (typeof email !== 'string') return email
      if (!email) return refuse(400, 'Enter your email address, like ann@example.com.', 'email')
      const problem = passwordProblem(given.password, { email, name })
      if (problem) return refuse(400, problem, 'password')
      const first = db
        .select()
        .from(team)
        .where(and(onTeam, eq(team.role, 'owner')))
        .orderBy(asc(team.id))
        .get()
      if (!first) return refuse(409, 'The team has no owner to set up.')
      // Hashed first, so the claim and the password are one write: two claims at once (the link's
      // and the machine's) cannot both pass the check above and take the account one after the other.
      const passwordHash = await hashPassword(given.password)
      const gone = await writes.whenFree(() =>
        db.transaction((tx): string | null => {
          const link = createClaimLinks(tx, now)
          const someoneSignsIn = tx
            .select({ id: team.id })
            .from(team)
            .where(and(onTeam, isNotNull(team.passwordHash)))
            .get()
          if (someoneSignsIn) return 'The site is claimed already.'
          if ('link' in way && !link.good(way.link)) return linkGone
          link.usedUp()
          tx.update(team)
            .set({ name, email, passwordHash, joinedAt: first.joinedAt ?? new Date(now()) })
            .where(eq(team.id, first.id))
            .run()
          activity.recordIn(tx, {
            kind: 'person-joined',
            by: first.id,
            detail: `${name} claimed the site as its first owner`,
            address,
          })
          return null
        }),
      )
      if (gone) return refuse(410, gone)
      // Whatever sessions the account had end with its claim, and the open inbox closes.
      await access.endSessionsOf(first.id)
      access.recount()
      return { ok: true, cookie: await access.openSession(first.id, opening) }
    },
  }
}
