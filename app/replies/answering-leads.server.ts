import type { FarmDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
import type { OwnerMailSettings } from '#app/owner-mail/owner-mail-sender.server'
import type { UpdatesDesk } from '#app/updates/update-requests.server'
import { createAcknowledgements } from './acknowledgement.server'
import { createReplies } from './replies.server'
import { createReplyDelivery } from './reply-delivery.server'

/**
 * Answering leads: the owner's replies, the acknowledgement (VISITOR_ACK) and the ask to confirm
 * updates, and their mails on the delivery engine. Mail goes out as the farm, so only a signed-in
 * owner may send it, and only through the owner's mail server; `cannotReply` says what to set.
 * Each is read with the settings of the moment: setting mail up takes no restart.
 */
export function answerLeads({
  engine,
  db,
  writes,
  events,
  mail,
  retryBaseMs,
  farmName,
  timeZone,
  acknowledging,
  updates,
  ownerRequired,
  log,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  writes: Writes
  events: SubmissionEvents
  /** The owner's mail settings now (SMTP_URL, NOTIFY_*): null while none is sent. */
  mail: () => (Omit<OwnerMailSettings, 'fromName' | 'timeZone'> & { fromName: string | null }) | null
  retryBaseMs: number
  farmName: () => string
  /** The farm's clock now. */
  timeZone: () => string
  /** VISITOR_ACK now. */
  acknowledging: () => boolean
  /** UPDATES' desk now: a clean lead is asked whether they want them. */
  updates: () => UpdatesDesk | null
  ownerRequired: () => boolean
  log: Log
}) {
  const from = () => mail()?.from ?? 'farm@localhost'
  const visitorMails = createReplyDelivery({
    engine,
    db,
    events,
    settings: () => {
      const current = mail()
      const desk = updates()
      return current
        ? {
            smtpUrl: current.smtpUrl,
            from: current.from,
            fromName: current.fromName ?? farmName(),
            replyTo: current.to[0]!,
            farmName: farmName(),
            timeZone: timeZone(),
            ...(desk ? { confirmUrl: desk.links.confirmUrl } : {}),
          }
        : null
    },
    retryBaseMs,
  })
  const said = () => {
    if (!mail() && acknowledging()) {
      log.warn(
        {},
        'VISITOR_ACK is on but mail is not set up (SMTP_URL and NOTIFY_EMAIL, or the settings page): no acknowledgement is sent',
      )
    }
  }
  said()
  return {
    replies: createReplies({
      db,
      events,
      writes,
      farmName,
      from,
      visitorMails,
      acknowledging: () => mail() !== null && acknowledging(),
    }),
    /** What each clean lead is owed when it arrives: the acknowledgement, the ask, or nothing. */
    acknowledgements: createAcknowledgements({
      db,
      farmName,
      from,
      log,
      acknowledging: () => mail() !== null && acknowledging(),
      consent: () => (mail() ? (updates()?.subscribers ?? null) : null),
      visitorMails,
    }),
    /** Why the owner cannot send mail from the inbox, or null when they can. */
    cannotReply(): string | null {
      return !ownerRequired()
        ? 'To answer from here, claim the site first: mail goes out as the farm, so only a signed-in person of the team may send it.'
        : !mail()
          ? 'To answer from here, set up mail in the settings (or set SMTP_URL and NOTIFY_EMAIL): replies go out by mail.'
          : null
    },
    /** After a change of settings: says again what is off. */
    settingsChanged: said,
  }
}
