import { and, asc, eq, ne } from 'drizzle-orm'
import { passkeys, pushSubscriptions, team } from '#app/data/schema'
import {
  active,
  onTeam,
  personOf,
  readEmail,
  readName,
  withCounts,
  type Person,
  type TeamNeeds,
} from './on-the-team.server'
import { refuse, type Answer } from '#app/http/refusal.server'

/** A person's own page: who they are, what they are told of, their phones and passkeys. */
export interface Mine extends Person {
  mailNewLeads: boolean
  pushNewLeads: boolean
  phoneList: Array<{ id: number; addedAt: number; endpointHost: string }>
  passkeyList: Array<{ id: string; addedAt: number; lastUsedAt: number | null }>
}

/** What each person of the team sees and changes of their own. */
export function createOwnPage({ db, writes }: Pick<TeamNeeds, 'db' | 'writes'>) {
  return {
    /** Their own page's facts, or null when they are not on the team. */
    mine(id: number): Mine | null {
      const found = withCounts(db)
        .where(and(eq(team.id, id), onTeam))
        .get()
      if (!found) return null
      const phoneList = db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.memberId, id))
        .orderBy(asc(pushSubscriptions.id))
        .all()
        .map((phone) => ({
          id: phone.id,
          addedAt: phone.createdAt.getTime(),
          endpointHost: new URL(phone.endpoint).host,
        }))
      const passkeyList = db
        .select()
        .from(passkeys)
        .where(eq(passkeys.memberId, id))
        .orderBy(asc(passkeys.createdAt))
        .all()
        .map((key) => ({ id: key.id, addedAt: key.createdAt.getTime(), lastUsedAt: key.lastUsedAt?.getTime() ?? null }))
      return {
        ...personOf(found.row, found.passkeys, found.phones),
        mailNewLeads: found.row.mailNewLeads,
        pushNewLeads: found.row.pushNewLeads,
        phoneList,
        passkeyList,
      }
    },

    /**
     * Their own name, address and what they are told of. The first owner may leave the address
     * empty (they sign in with OWNER_PASSWORD); anyone else keeps one, never another person's.
     */
    async changeMine(
      id: number,
      given: { name: string; email: string; mailNewLeads: boolean; pushNewLeads: boolean },
    ): Promise<Answer<object>> {
      const name = readName(given.name)
      if (typeof name !== 'string') return name
      const email = readEmail(given.email, 'your')
      if (typeof email !== 'string') return email
      return writes.whenFree(() =>
        db.transaction((tx): Answer<object> => {
          const person = active(tx, id)
          if (!person) return refuse(404, 'You are not on the team any more.')
          if (!email && person.email !== null)
            return refuse(400, 'Keep an email address: it is how you sign in.', 'email')
          if (
            email &&
            tx
              .select({ id: team.id })
              .from(team)
              .where(and(onTeam, eq(team.email, email), ne(team.id, id)))
              .get()
          ) {
            return refuse(409, `${email} is someone else’s on the team.`, 'email')
          }
          tx.update(team)
            .set({ name, email: email || null, mailNewLeads: given.mailNewLeads, pushNewLeads: given.pushNewLeads })
            .where(eq(team.id, id))
            .run()
          return { ok: true }
        }),
      )
    },

    /** Stops one of their own phones being pushed. */
    async removePhone(id: number, phoneId: number): Promise<boolean> {
      const gone = await writes.whenFree(() =>
        db
          .delete(pushSubscriptions)
          .where(and(eq(pushSubscriptions.id, phoneId), eq(pushSubscriptions.memberId, id)))
          .run(),
      )
      return gone.changes > 0
    },
  }
}
