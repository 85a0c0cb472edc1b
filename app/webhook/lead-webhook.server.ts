import type { OpenDatabase } from '#app/data/database.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { Log } from '#app/log'
import { createWebhook, type WebhookSettings } from './webhook.server'

/** Each lead posted to WEBHOOK_URL, on the delivery engine; off when it is not set. */
export function postLeads({
  engine,
  database,
  settings,
  log,
}: {
  engine: DeliveryEngine
  database: OpenDatabase
  settings: WebhookSettings | null
  log: Log
}) {
  return settings ? createWebhook({ engine, db: database.db, writes: database.writes, log, settings }) : null
}
