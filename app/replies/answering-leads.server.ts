import type { OpenDatabase } from '#app/data/database.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
import type { OwnerMailSettings } from '#app/owner-mail/owner-mail-sender.server'
import type { UpdatesDesk } from '#app/updates/update-requests.server'
import { createAcknowledgements } from './acknowledgement.server'
import { createReplies } from './replies.server'
import { createReplyDelivery, keptVisitorMails } from './reply-delivery.server'

/**
 * Answering leads: the owner's replies, the acknowledgement (VISITOR_ACK) and the ask to confirm
 * updates, and their mails on the delivery engine. Mail goes out as the farm, so only a signed-in
 * owner may send it, and only through the owner's mail server; `cannotReply` says what to set.
 */
export function answerLeads({
  engine,
  database,
  events,
  mail,
  farmName,
  acknowledging,
  updates,
  ownerRequired,
  log,
}: {
  engine: DeliveryEngine
  database: OpenDatabase
  events: SubmissionEvents
  /** The owner's mail settings (SMTP_URL, NOTIFY_*): null when none is sent. */
  mail: OwnerMailSettings | null
  farmName: string
  /** VISITOR_ACK. */
  acknowledging: boolean
  /** UPDATES' desk: a clean lead is asked whether they want them. */
  updates: UpdatesDesk | null
  ownerRequired: boolean
  log: Log
}) {
  const { db, writes } = database
  const visitorMails = mail
    ? createReplyDelivery({
        engine,
        db,
        events,
        writes,
        log,
        smtpUrl: mail.smtpUrl,
        settings: {
          from: mail.from,
          replyTo: mail.to[0]!,
          farmName,
          ...(updates ? { confirmUrl: updates.links.confirmUrl } : {}),
        },
        retryBaseMs: mail.retryBaseMs,
      })
    : keptVisitorMails(engine)
  if (!mail && acknowledging) {
    log.warn({}, 'VISITOR_ACK is on but SMTP_URL or NOTIFY_EMAIL is not set: no acknowledgement is sent')
  }
  return {
    replies: createReplies({
      db,
      events,
      writes,
      farmName,
      from: mail?.from ?? 'farm@localhost',
      visitorMails,
      acknowledging: mail !== null && acknowledging,
    }),
    /** What each clean lead is owed when it arrives: the acknowledgement, the ask, or nothing. */
    acknowledgements:
      mail && (acknowledging || updates)
        ? createAcknowledgements({
            db,
            farmName,
            from: mail.from,
            log,
            acknowledging,
            consent: updates?.subscribers ?? null,
            visitorMails,
          })
        : null,
    /** Why the owner cannot send mail from the inbox, or null when they can. */
    cannotReply: !ownerRequired
      ? 'To answer from here, set OWNER_PASSWORD: mail goes out as the farm, so only the signed-in owner may send it.'
      : !mail
        ? 'To answer from here, set SMTP_URL and NOTIFY_EMAIL: replies go out by mail.'
        : null,
  }
}
