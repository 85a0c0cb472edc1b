import { randomBytes } from 'node:crypto'
import { and, asc, count, eq, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { teamRoles, type TeamRole } from '#app/data/enums'
import { deliveries, invitations, passkeys, pushSubscriptions, team, type TeamRow } from '#app/data/schema'
import { waiting } from '#app/delivery/record.server'
import type { Writes } from '#app/data/writes.server'
import { isEmailAddress } from '#app/leads/mailbox'
import type { Log } from '#app/log'
import { sha256, tokenShape, type Opening, type OwnerAccess, type TeamMember } from '#app/owner/owner-access.server'
import { passwordProblem } from '#app/owner/passwords.server'
import type { ActivityLog } from './activity.server'
import type { InvitationMails } from './invitation-mail.server'

const dayMs = 24 * 60 * 60 * 1000
export const invitationDays = 7
const setUpMs = 60 * 60 * 1000
export const teamLimits = { people: 50, name: 80, email: 254 }

const newToken = () => randomBytes(32).toString('base64url')

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

/** A person's own page: who they are, what they are told of, their phones and passkeys. */
export interface Mine extends Person {
  mailNewLeads: boolean
  pushNewLeads: boolean
  phoneList: Array<{ id: number; addedAt: number; endpointHost: string }>
  passkeyList: Array<{ id: string; addedAt: number; lastUsedAt: number | null }>
}

export type Refused = { ok: false; status: number; error: string; field?: string }
type Done<T = object> = ({ ok: true } & T) | Refused

const refused = (status: number, error: string, field?: string): Refused => ({
  ok: false,
  status,
  error,
  ...(field ? { field } : {}),
})

/** Who is on the farm’s team, and what only an owner changes about them: the team page's and the API's one door. */
export function createTeam({
  db,
  writes,
  access,
  activity,
  mails,
  owed,
  log,
  now = Date.now,
}: {
  db: FarmDatabase
  writes: Writes
  access: OwnerAccess
  activity: ActivityLog
  /** Each invitation mailed, while mail is set up. */
  mails: Pick<InvitationMails, 'oweIn'>
  /** After a commit that owed a mail: the delivery engine looks. */
  owed: () => void
  log: Log
  now?: () => number
}) {
  const onTeam = isNull(team.removedAt)
  const personOf = (row: TeamRow, passkeyCount: number, phoneCount: number): Person => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    joinedAt: row.joinedAt?.getTime() ?? null,
    passkeys: passkeyCount,
    phones: phoneCount,
  })
  const withCounts = () =>
    db
      .select({
        row: team,
        passkeys: sql<number>`(SELECT count(*) FROM passkeys WHERE member_id = ${team.id})`,
        phones: sql<number>`(SELECT count(*) FROM push_subscriptions WHERE member_id = ${team.id})`,
      })
      .from(team)

  /** The person with this id while they are on the team, read in `tx` when inside a transaction. */
  function active(id: number, tx: Pick<FarmDatabase, 'select'> = db): TeamRow | undefined {
    return tx
      .select()
      .from(team)
      .where(and(eq(team.id, id), onTeam))
      .get()
  }

  /** Whether anyone else is an owner who has joined: the team is never left without one. */
  function anotherOwner(tx: Pick<FarmDatabase, 'select'>, id: number) {
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
  function endLinksMadeBy(tx: Pick<FarmDatabase, 'update'>, id: number) {
    tx.update(invitations)
      .set({ usedAt: new Date(now()), mailLink: null })
      .where(and(eq(invitations.invitedBy, id), isNull(invitations.usedAt)))
      .run()
  }

  /** An address as kept: trimmed, in lower case; '' stays '' for the caller to allow or not. */
  function readEmail(value: string, whose: 'their' | 'your'): string | Refused {
    const email = value.trim().toLowerCase()
    if (email && (!isEmailAddress(email) || email.length > teamLimits.email)) {
      return refused(400, `Enter ${whose} email address, like ann@example.com.`, 'email')
    }
    return email
  }

  function readName(value: string): string | Refused {
    const name = value.trim().replace(/\s+/g, ' ')
    if (!name) return refused(400, 'Say what the team should call them.', 'name')
    if (name.length > teamLimits.name) return refused(400, `Keep the name under ${teamLimits.name} characters.`, 'name')
    return name
  }

  // One pending set-up link at a time, in memory: it is printed in the log, made again after an hour.
  let setUp: { hash: string; until: number } | null = null

  return {
    /** Everyone on the team, invited or joined, first come first. */
    people(): Person[] {
      return withCounts()
        .where(onTeam)
        .orderBy(asc(team.id))
        .limit(teamLimits.people + 1)
        .all()
        .map((row) => personOf(row.row, row.passkeys, row.phones))
    },

    /** Their own page's facts, or null when they are not on the team. */
    mine(id: number): Mine | null {
      const found = withCounts()
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
     * Adds a person and gives back their invitation's link token: it sets their password, once,
     * within 7 days. Refused for an address already on the team, or past 50 people.
     */
    async invite(
      given: { name: string; email: string; role: string },
      by: TeamMember,
      address: string,
      linkOf: (token: string) => string,
    ): Promise<Done<{ token: string; person: Person; expiresAt: number; mailed: boolean }>> {
      const name = readName(given.name)
      if (typeof name !== 'string') return name
      const email = readEmail(given.email, 'their')
      if (typeof email !== 'string') return email
      if (!email) return refused(400, 'Enter their email address, like ann@example.com.', 'email')
      const role = teamRoles.find((known) => known === given.role)
      if (!role) return refused(400, 'Choose a role: owner or helper.', 'role')
      const token = newToken()
      const at = new Date(now())
      const expiresAt = new Date(at.getTime() + invitationDays * dayMs)
      const made = await writes.whenFree(() =>
        db.transaction((tx): Done<{ person: TeamRow; mailed: boolean }> => {
          if (
            tx
              .select({ id: team.id })
              .from(team)
              .where(and(onTeam, eq(team.email, email)))
              .get()
          ) {
            return refused(409, `${email} is already on the team.`, 'email')
          }
          const [people] = tx.select({ n: count() }).from(team).where(onTeam).all()
          if ((people?.n ?? 0) >= teamLimits.people) {
            return refused(409, `The team has ${teamLimits.people} people already: remove someone first.`)
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
    ): Promise<Done<{ token: string; expiresAt: number; name: string; mailed: string | null }>> {
      const token = newToken()
      const at = new Date(now())
      const expiresAt = new Date(at.getTime() + invitationDays * dayMs)
      const made = await writes.whenFree(() =>
        db.transaction((tx): Done<{ token: string; expiresAt: number; name: string; mailed: string | null }> => {
          const person = active(id, tx)
          if (!person) return refused(404, 'That person is not on the team.')
          if (person.joinedAt) return refused(409, `${person.name} has joined already.`)
          // The links before stop working, and a mail of one not sent yet goes with it.
          tx.update(invitations)
            .set({ usedAt: at, mailLink: null })
            .where(and(eq(invitations.memberId, id), isNull(invitations.usedAt)))
            .run()
          tx.update(deliveries)
            .set({ state: 'skipped', lastError: 'A new invitation link replaced it' })
            .where(and(eq(deliveries.memberId, id), eq(deliveries.kind, 'invitation-mail'), waiting))
            .run()
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

    /** Whom an invitation link is for, or why it no longer works. */
    invitation(token: string): Done<{ name: string; email: string; role: TeamRole }> {
      if (!tokenShape.test(token)) return refused(404, 'That invitation link is not one the site made.')
      const found = db
        .select({ invitation: invitations, person: team })
        .from(invitations)
        .innerJoin(team, eq(team.id, invitations.memberId))
        .where(eq(invitations.tokenHash, sha256(token)))
        .get()
      if (!found || found.person.removedAt) return refused(404, 'That invitation link is not one the site made.')
      if (found.invitation.usedAt || found.person.joinedAt) {
        return refused(410, 'That invitation link has been used. Sign in instead, or ask an owner for a new one.')
      }
      if (found.invitation.expiresAt.getTime() <= now()) {
        return refused(410, `That invitation link is more than ${invitationDays} days old. Ask an owner for a new one.`)
      }
      return { ok: true, name: found.person.name, email: found.person.email ?? '', role: found.person.role }
    },

    /** Takes an invitation: their password set, the link used up, and a session for them. */
    async join(token: string, password: string, opening: Opening, address: string): Promise<Done<{ cookie: string }>> {
      const invited = this.invitation(token)
      if (!invited.ok) return invited
      const problem = passwordProblem(password, invited)
      if (problem) return refused(400, problem, 'password')
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
        return refused(410, 'That invitation link has been used. Sign in instead, or ask an owner for a new one.')
      const problemAgain = await access.setPassword(taken, password)
      if (problemAgain) return refused(400, problemAgain, 'password')
      return { ok: true, cookie: await access.openSession(taken, opening) }
    },

    /**
     * Takes them off the team at once: sessions, live sockets, phones, passkeys and links end, the
     * links they made for others too. Never the last owner who has joined.
     */
    async remove(id: number, by: TeamMember, address: string): Promise<Done> {
      const done = await writes.whenFree(() =>
        db.transaction((tx): Done => {
          const person = active(id, tx)
          if (!person) return refused(404, 'That person is not on the team.')
          // Checked in the transaction that writes: two owners removing each other leave one.
          if (person.role === 'owner' && !anotherOwner(tx, id)) {
            return refused(409, `${person.name} is the last owner: make someone else an owner first.`)
          }
          tx.update(team)
            .set({ removedAt: new Date(now()), email: null, passwordHash: null })
            .where(eq(team.id, id))
            .run()
          tx.delete(pushSubscriptions).where(eq(pushSubscriptions.memberId, id)).run()
          tx.delete(passkeys).where(eq(passkeys.memberId, id)).run()
          tx.delete(invitations).where(eq(invitations.memberId, id)).run()
          endLinksMadeBy(tx, id)
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
    async changeRole(id: number, given: string, by: TeamMember, address: string): Promise<Done> {
      const role = teamRoles.find((known) => known === given)
      if (!role) return refused(400, 'Choose a role: owner or helper.', 'role')
      const done = await writes.whenFree(() =>
        db.transaction((tx): Done<{ changed: boolean }> => {
          const person = active(id, tx)
          if (!person) return refused(404, 'That person is not on the team.')
          if (person.role === role) return { ok: true, changed: false }
          if (person.role === 'owner' && !anotherOwner(tx, id)) {
            return refused(409, `${person.name} is the last owner: make someone else an owner first.`)
          }
          tx.update(team).set({ role }).where(eq(team.id, id)).run()
          // A helper now: the owner links they made end with their owner's rights.
          if (role === 'helper') endLinksMadeBy(tx, id)
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
    async signOutEverywhere(id: number, by: TeamMember, address: string): Promise<Done<{ ended: number }>> {
      const person = active(id)
      if (!person) return refused(404, 'That person is not on the team.')
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

    /**
     * Their own name, address and what they are told of. The first owner may leave the address
     * empty (they sign in with OWNER_PASSWORD); anyone else keeps one, never another person's.
     */
    async changeMine(
      id: number,
      given: { name: string; email: string; mailNewLeads: boolean; pushNewLeads: boolean },
    ): Promise<Done> {
      const name = readName(given.name)
      if (typeof name !== 'string') return name
      const email = readEmail(given.email, 'your')
      if (typeof email !== 'string') return email
      return writes.whenFree(() =>
        db.transaction((tx): Done => {
          const person = active(id, tx)
          if (!person) return refused(404, 'You are not on the team any more.')
          if (!email && person.email !== null)
            return refused(400, 'Keep an email address: it is how you sign in.', 'email')
          if (
            email &&
            tx
              .select({ id: team.id })
              .from(team)
              .where(and(onTeam, eq(team.email, email), ne(team.id, id)))
              .get()
          ) {
            return refused(409, `${email} is someone else’s on the team.`, 'email')
          }
          tx.update(team)
            .set({ name, email: email || null, mailNewLeads: given.mailNewLeads, pushNewLeads: given.pushNewLeads })
            .where(eq(team.id, id))
            .run()
          return { ok: true }
        }),
      )
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

    /** Whether a set-up link is the one printed, still good, and the inbox still open. */
    setUpOpen(token: string): boolean {
      return (
        !access.required &&
        setUp !== null &&
        setUp.until > now() &&
        tokenShape.test(token) &&
        sha256(token) === setUp.hash
      )
    },

    /** Makes the first owner from the set-up link: their name, address and password; the link is used up. */
    async makeFirstOwner(
      token: string,
      given: { name: string; email: string; password: string },
      opening: Opening,
      address: string,
    ): Promise<Done<{ cookie: string }>> {
      if (!this.setUpOpen(token)) return refused(410, 'That set-up link has been used or is more than an hour old.')
      const name = readName(given.name)
      if (typeof name !== 'string') return name
      const email = readEmail(given.email, 'your')
      if (typeof email !== 'string') return email
      if (!email) return refused(400, 'Enter your email address, like ann@example.com.', 'email')
      const problem = passwordProblem(given.password, { email, name })
      if (problem) return refused(400, problem, 'password')
      setUp = null
      const first = db
        .select()
        .from(team)
        .where(and(onTeam, eq(team.role, 'owner')))
        .orderBy(asc(team.id))
        .get()
      if (!first) return refused(409, 'The team has no owner to set up.')
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
      if (failed) return refused(400, failed, 'password')
      return { ok: true, cookie: await access.openSession(first.id, opening) }
    },
  }
}

export type Team = ReturnType<typeof createTeam>
