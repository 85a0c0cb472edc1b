import type { OpenDatabase } from '#app/data/database.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { Log } from '#app/log'
import { createPush } from './push.server'
import { vapidKeys, type VapidKeys } from './vapid.server'

/** PUSH_HOSTS, the VAPID keys and subject, PUBLIC_URL, and the retries' base. */
export interface OwnerPhonesSettings {
  hosts: string[]
  keys: VapidKeys | null
  subject: string | null
  siteUrl: string | null
  retryBaseMs: number
}

/**
 * The owner's phones told of each lead, on the delivery engine. Only a signed-in owner may have a
 * phone told, so only with OWNER_PASSWORD; and push services need to know whom to contact.
 * `cannotPush` says which is missing.
 */
export function tellOwnerPhones({
  engine,
  database,
  settings,
  ownerRequired,
  log,
}: {
  engine: DeliveryEngine
  database: OpenDatabase
  settings: OwnerPhonesSettings
  ownerRequired: boolean
  log: Log
}) {
  const push =
    ownerRequired && settings.subject
      ? createPush({
          engine,
          db: database.db,
          writes: database.writes,
          log,
          settings: {
            keys: vapidKeys(database.db, settings.keys),
            subject: settings.subject,
            siteUrl: settings.siteUrl,
            retryBaseMs: settings.retryBaseMs,
          },
        })
      : null
  return {
    /** Null unless the owner's phones may be notified. */
    push: push ? { ...push, hosts: settings.hosts } : null,
    /** Why no phone can be notified of leads, or null when one can. */
    cannotPush: !ownerRequired
      ? 'To be notified on this phone, set OWNER_PASSWORD: an open inbox must never let a stranger subscribe to its leads.'
      : !push
        ? 'To be notified on this phone, set VAPID_SUBJECT (or NOTIFY_EMAIL, or an https PUBLIC_URL): push services need to know whom to contact.'
        : null,
  }
}
