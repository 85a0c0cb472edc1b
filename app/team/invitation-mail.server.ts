import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { invitations, team, type DeliveryRow, type TeamRow } from '#app/data/schema'
import { owedSinceLastLook, type DeliveryEngine } from '#app/delivery/engine.server'
import { owe } from '#app/delivery/record.server'
import { idsOf } from '#app/delivery/sender.server'
import { mailVerdict } from '#app/delivery/smtp-refusals.server'
import { shortTimeAndZone } from '#app/clock/dates'

/** The mail settings an invitation goes out with. */
export interface InvitationMailSettings {
  smtpUrl: string
  from: string
  /** NOTIFY_FROM's name, else the farm's. */
  fromName: string
  farmName: string
  /** The farm's clock: the link's last moment is said on it. */
  timeZone: string
}

type InvitationItem = { person: TeamRow; invitation: typeof invitations.$inferSelect | null }

/** The invitation in words: who asked, what for, the link, and until when (on the farm's clock, `zone`). */
export function invitationMail(
  to: { name: string; role: string },
  { farmName, timeZone }: Pick<InvitationMailSettings, 'farmName' | 'timeZone'>,
  link: string,
  until: Date,
) {
  const role = to.role === 'owner' ? 'an owner' : 'a helper'
  return {
    subject: `You are invited to ${farmName}’s inbox`,
    text: [
      `Hello ${to.name},`,
      '',
      `You are invited to work ${farmName}’s inbox of leads, as ${role}.`,
      'Choose your password here to join (the link works once):',
      '',
      link,
      '',
      `It stops working on ${shortTimeAndZone(until.getTime(), timeZone)}. If you did not expect this, ignore it: nothing happens.`,
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
  settings,
  retryBaseMs,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  settings: () => InvitationMailSettings | null
  retryBaseMs: number
}) {
  const transport = engine.smtp()
  const lately = owedSinceLastLook()

  function batchesOf(rows: DeliveryRow[]) {
    if (rows.length === 0) return { batches: [] }
    const found = db
      .select({ person: team, invitation: invitations })
      .from(team)
      .leftJoin(invitations, and(eq(invitations.memberId, team.id), isNotNull(invitations.mailLink)))
      .where(inArray(team.id, idsOf(rows, 'memberId')))
      .all()
    const items = new Map(found.map((item) => [item.person.id, item]))
    return {
      batches: rows.flatMap((row) => {
        const item = row.memberId === null ? undefined : items.get(row.memberId)
        return item ? [{ rows: [row], item }] : []
      }),
    }
  }

  engine.deliver<InvitationItem, InvitationMailSettings>({
    kind: 'invitation-mail',
    name: 'invitations',
    setup: settings,
    retryBaseMs,
    batchesOf,
    async send({ item: { person, invitation } }, current) {
      if (!invitation?.mailLink || !person.email || person.removedAt || person.joinedAt)
        return { skipped: 'No longer invited' }
      const mail = invitationMail(person, current, invitation.mailLink, invitation.expiresAt)
      try {
        await transport.send(current.smtpUrl, {
          from: { name: current.fromName, address: current.from },
          to: person.email,
          subject: mail.subject,
          text: mail.text,
          headers: { 'Auto-Submitted': 'auto-generated' },
        })
      } catch (error) {
        return mailVerdict(error)
      }
      return { sent: true }
    },
    // Sent, refused or given up: the link is not kept any longer (it is on the team page to copy).
    settled(tx, rows, state) {
      if (state === 'retrying' || state === 'skipped') return
      for (const row of rows)
        tx.update(invitations).set({ mailLink: null }).where(eq(invitations.memberId, row.memberId!)).run()
    },
    words: {
      later: 'could not mail an invitation; trying again later',
      refused: 'the mail server refused an invitation; its link is on the team page',
      gaveUp: 'gave up mailing an invitation after a day of trying; its link is on the team page',
    },
    mayHaveWork: lately.mayHaveWork,
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
