import type { FarmDatabase } from '#app/data/database.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { Log } from '#app/log'
import { createOutboxSender, type OwnerMailSettings } from './owner-mail-sender.server'

/** The owner's mail about each lead, on the delivery engine; off (and said so) while mail is not set up. */
export function mailTheOwner({
  engine,
  db,
  settings,
  retryBaseMs,
  log,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  settings: () => OwnerMailSettings | null
  retryBaseMs: number
  log: Log
}) {
  const sender = createOutboxSender({ engine, db, settings, retryBaseMs })
  const said = (mail: OwnerMailSettings | null) =>
    mail
      ? log.info(
          { smtp: new URL(mail.smtpUrl).host, to: mail.to.length, ...sender.backlog() },
          'mailing the owner about each lead',
        )
      : log.info(
          {},
          'mail is not set up (SMTP_URL and NOTIFY_EMAIL, or the settings page): the owner is not mailed about new leads, and cannot reply from the inbox',
        )
  said(settings())
  return {
    ...sender,
    /** After a change of settings: says what the owner's mail does now. */
    said: () => said(settings()),
  }
}
