import type { OpenDatabase } from '#app/data/database.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { Log } from '#app/log'
import { createOutboxSender, type OwnerMailSettings } from './owner-mail-sender.server'

/** The owner's mail about each lead, on the delivery engine; off (and said so once) without SMTP_URL and NOTIFY_EMAIL. */
export function mailTheOwner({
  engine,
  database,
  settings,
  log,
}: {
  engine: DeliveryEngine
  database: OpenDatabase
  settings: OwnerMailSettings | null
  log: Log
}) {
  if (!settings) {
    log.info(
      {},
      'SMTP_URL or NOTIFY_EMAIL is not set: the owner is not mailed about new leads, and cannot reply from the inbox',
    )
    return null
  }
  return createOutboxSender({ engine, db: database.db, settings, log, writes: database.writes })
}
