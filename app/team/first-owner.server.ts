import { and, asc, eq } from 'drizzle-orm'
import { team } from '#app/data/schema'
import { sha256, tokenShape, type Opening } from '#app/owner/owner-access.server'
import { passwordProblem } from '#app/owner/passwords.server'
import { newToken, onTeam, readEmail, readName, type TeamNeeds } from './on-the-team.server'
import { refuse, type Answer } from '#app/http/refusal.server'

const setUpMs = 60 * 60 * 1000

/** Setting up the site's first owner, through a link printed in the log, while no one can sign in. */
export function createFirstOwner({ db, writes, access, activity, log, now }: TeamNeeds) {
  // One pending set-up link at a time, in memory: it is printed in the log, made again after an hour.
  let setUp: { hash: string; until: number } | null = null

  /** Whether a set-up link is the one printed, still good, and the inbox still open. */
  function setUpOpen(token: string): boolean {
    return (
      !access.required &&
      setUp !== null &&
      setUp.until > now() &&
      tokenShape.test(token) &&
      sha256(token) === setUp.hash
    )
  }

  return {
    /**
     * While no one can sign in: a link that makes the first owner, printed in the log for whoever
     * runs the site (asked for by a look at the inbox from this machine). Once per hour's link.
     */
    offerSetUp(origin: string) {
      if (access.required) return
      // The link names this machine only: a request's Host is whatever a stranger wrote in it.
      const { hostname } = new URL(origin)
      const shown = ['localhost', '127.0.0.1', '[::1]'].includes(hostname) ? origin : ''
      if (setUp && setUp.until > now()) return
      const token = newToken()
      setUp = { hash: sha256(token), until: now() + setUpMs }
      log.warn(
        { link: `${shown}/set-up/${token}` },
        'no one of the team can sign in: open this link within an hour, on this machine, to make the first owner',
      )
    },

    setUpOpen,

    /** Makes the first owner from the set-up link: their name, address and password; the link is used up. */
    async makeFirstOwner(
      token: string,
      given: { name: string; email: string; password: string },
      opening: Opening,
      address: string,
    ): Promise<Answer<{ cookie: string }>> {
      if (!setUpOpen(token)) return refuse(410, 'That set-up link has been used or is more than an hour old.')
      const name = readName(given.name)
      if (typeof name !== 'string') return name
      const email = readEmail(given.email, 'your')
      if (typeof email !== 'string') return email
      if (!email) return refuse(400, 'Enter your email address, like ann@example.com.', 'email')
      const problem = passwordProblem(given.password, { email, name })
      if (problem) return refuse(400, problem, 'password')
      setUp = null
      const first = db
        .select()
        .from(team)
        .where(and(onTeam, eq(team.role, 'owner')))
        .orderBy(asc(team.id))
        .get()
      if (!first) return refuse(409, 'The team has no owner to set up.')
      await writes.whenFree(() =>
        db.transaction((tx) => {
          tx.update(team).set({ name, email }).where(eq(team.id, first.id)).run()
          activity.recordIn(tx, {
            kind: 'person-joined',
            by: first.id,
            detail: `${name} set up the site as its first owner`,
            address,
          })
        }),
      )
      const failed = await access.setPassword(first.id, given.password)
      if (failed) return refuse(400, failed, 'password')
      return { ok: true, cookie: await access.openSession(first.id, opening) }
    },
  }
}
