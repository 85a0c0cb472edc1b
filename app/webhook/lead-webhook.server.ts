import type { OpenDatabase } from '#app/data/database.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { Log } from '#app/log'
import { createWebhook, type WebhookSettings } from './webhook.server'

/** Each lead posted to the webhook, on the delivery engine; none owed while none is set. */
export function postLeads({
  engine,
  database,
  settings,
  retryBaseMs,
  log,
}: {
  engine: DeliveryEngine
  database: OpenDatabase
  settings: () => WebhookSettings | null
  retryBaseMs: number
  log: Log
}) {
  return createWebhook({ engine, db: database.db, writes: database.writes, log, settings, retryBaseMs })
}
