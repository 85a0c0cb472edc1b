import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { team } from '#app/data/schema'
import { onTeam, personOf, teamLimits, withCounts, type Person } from './on-the-team.server'

/** Who is on the team, and who of them is mailed about each lead. */
export function createRoster({ db }: { db: FarmDatabase }) {
  return {
    /** Everyone on the team, invited or joined, first come first. */
    people(): Person[] {
      return withCounts(db)
        .where(onTeam)
        .orderBy(asc(team.id))
        .limit(teamLimits.people + 1)
        .all()
        .map((row) => personOf(row.row, row.passkeys, row.phones))
    },

    /**
     * Who is mailed about each lead: each person of the team who joined and wants it, at their own
     * address; the first owner, who has none of their own, at the farm's NOTIFY_EMAIL. A person
     * who turned it off is left out, at whichever address.
     */
    leadMailTo(farm: string[]): string[] {
      const people = db
        .select({ email: team.email, wants: team.mailNewLeads })
        .from(team)
        .where(and(onTeam, isNotNull(team.joinedAt)))
        .all()
      const off = new Set(people.filter((person) => !person.wants).map((person) => person.email?.toLowerCase() ?? null))
      const to = off.has(null) ? [] : farm.filter((address) => !off.has(address.toLowerCase()))
      const known = new Set(to.map((address) => address.toLowerCase()))
      const theirs = people.filter((person) => person.wants && person.email !== null && !known.has(person.email))
      return [...to, ...theirs.map((person) => person.email!)]
    },

    /** Whether someone signs in with the owner password and no address (the first owner, not set up yet). */
    /** Whether this person has no address yet: the owner OWNER_PASSWORD made, before they gave theirs. */
    withoutAddress(id: number): boolean {
      return (
        db
          .select({ id: team.id })
          .from(team)
          .where(and(eq(team.id, id), onTeam, isNull(team.email)))
          .get() !== undefined
      )
    },
    someoneWithoutAddress(): boolean {
      return (
        db
          .select({ id: team.id })
          .from(team)
          .where(and(onTeam, isNull(team.email), isNotNull(team.passwordHash)))
          .limit(1)
          .get() !== undefined
      )
    },
  }
}
