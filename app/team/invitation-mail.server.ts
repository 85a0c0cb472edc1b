import { and, eq, isNotNull } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { deliveries, invitations, team } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { createAcceptedLedger } from '#app/delivery/accepted.server'
import { hasGivenUp, retryDelayMs } from '#app/delivery/backoff'
import { owedSinceLastLook, type DeliveryEngine } from '#app/delivery/engine.server'
import { deliveryRecord, dueOf, owe, soonestDue } from '#app/delivery/record.server'
import { refusedForGood, serverWords, smtpVerdict } from '#app/delivery/smtp-refusals'
import type { Log } from '#app/log'

/** The mail settings an invitation goes out with. */
export interface InvitationMailSettings {
  smtpUrl: string
  from: string
  fromName: string | null
  farmName: string
}

const mostPerRound = 20

/** The invitation in words: who asked, what for, the link, and until when. */
export function invitationMail(to: { name: string; role: string }, farmName: string, link: string, until: Date) {
  const role = to.role === 'owner' ? 'an owner' : 'a helper'
  return {
    subject: `You are invited to ${farmName}’s inbox`,
    text: [
      `Hello ${to.name},`,
      '',
      `You are invited to work ${farmName}’s inbox of enquiries, as ${role}.`,
      'Choose your password here to join (the link works once):',
      '',
      link,
      '',
      `It stops working on ${until.toUTCString()}. If you did not expect this, ignore it: nothing happens.`,
    ].join('\n'),
  }
}

/**
 * Each invitation mailed, when mail is set up, from the outbox: owed in the transaction that
 * makes the invitation, sent by the delivery engine, tried again as every mail is. The link is
 * kept beside the invitation only until the mail server takes it, then emptied: from then on only
 * its hash is kept, as for a link shown to copy.
 */
export function mailInvitations({
  engine,
  db,
  writes,
  settings,
  retryBaseMs,
  log,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  writes: Writes
  settings: () => InvitationMailSettings | null
  retryBaseMs: number
  log: Log
}) {
  const transport = engine.smtp()
  const lately = owedSinceLastLook()
  const emptied = (tx: Pick<FarmDatabase, 'update' | 'select'>, deliveryId: number, memberId: number, at: Date) => {
    deliveryRecord(tx).sent([deliveryId], at)
    tx.update(invitations).set({ mailLink: null }).where(eq(invitations.memberId, memberId)).run()
  }
  const accepted = createAcceptedLedger<{ id: number; memberId: number; at: Date }>({
    mark: ({ id, memberId, at }) => db.transaction((tx) => emptied(tx, id, memberId, at)),
    ids: ({ id }) => [id],
    writes,
    log,
    what: 'an invitation',
  })

  async function round(): Promise<number | null> {
    const current = settings()
    if (!current || !accepted.markHeld()) return soonestDue(db, 'invitation-mail')
    const held = accepted.held()
    const due = db
      .select({ delivery: deliveries, person: team, invitation: invitations })
      .from(deliveries)
      .innerJoin(team, eq(team.id, deliveries.memberId))
      .leftJoin(invitations, and(eq(invitations.memberId, team.id), isNotNull(invitations.mailLink)))
      .where(dueOf('invitation-mail', new Date(engine.now())))
      .limit(mostPerRound)
      .all()
    for (const { delivery, person, invitation } of due) {
      if (engine.stopping) break
      if (held.has(delivery.id)) continue
      const record = deliveryRecord(db)
      if (!invitation?.mailLink || !person.email || person.removedAt || person.joinedAt) {
        await writes.whenFree(() => record.skipped(delivery.id, 'No longer invited'))
        continue
      }
      const mail = invitationMail(person, current.farmName, invitation.mailLink, invitation.expiresAt)
      try {
        await transport.send(current.smtpUrl, {
          from: current.fromName ? { name: current.fromName, address: current.from } : current.from,
          to: person.email,
          subject: mail.subject,
          text: mail.text,
          headers: { 'Auto-Submitted': 'auto-generated' },
        })
      } catch (error) {
        const why = serverWords(error)
        const at = new Date(engine.now())
        // A mail that will not go: its link is not kept any longer (it is on the team page to copy).
        const forget = () =>
          db.update(invitations).set({ mailLink: null }).where(eq(invitations.memberId, person.id)).run()
        if (refusedForGood(smtpVerdict(error))) {
          await writes.whenFree(() =>
            db.transaction(() => {
              record.failed([delivery.id], why)
              forget()
            }),
          )
          log.warn(
            { person: person.id, reason: why },
            'the mail server refused an invitation; its link is on the team page',
          )
        } else if (hasGivenUp(delivery.failingSince, at.getTime())) {
          await writes.whenFree(() =>
            db.transaction(() => {
              record.gaveUp([{ id: delivery.id, lastError: why }])
              forget()
            }),
          )
        } else {
          const retryAt = new Date(at.getTime() + retryDelayMs(retryBaseMs, delivery.attempts + 1))
          await writes.whenFree(() => record.retrying(delivery, retryAt, why, at))
        }
        continue
      }
      await accepted.accepted({ id: delivery.id, memberId: person.id, at: new Date(engine.now()) })
    }
    return soonestDue(db, 'invitation-mail')
  }

  engine.run({
    name: 'invitations',
    round,
    retryMs: retryBaseMs,
    mayHaveWork: lately.mayHaveWork,
    lastly: accepted.markBeforeStop,
  })

  return {
    /** Whether an invitation made now is mailed. */
    on: () => settings() !== null,
    /** Inside the transaction that makes an invitation: its mail owed, the link kept until it is sent. */
    oweIn(tx: Pick<FarmDatabase, 'insert' | 'update'>, memberId: number, tokenHash: string, link: string, at: Date) {
      if (!settings()) return false
      tx.update(invitations).set({ mailLink: link }).where(eq(invitations.tokenHash, tokenHash)).run()
      owe(tx, { kind: 'invitation-mail', memberId }, at)
      lately.owed()
      return true
    },
  }
}

export type InvitationMails = ReturnType<typeof mailInvitations>
