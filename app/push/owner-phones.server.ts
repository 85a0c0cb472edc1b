import type { FarmDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { Log } from '#app/log'
import { pushSubscriptions } from '#app/data/schema'
import { createPush, type Push } from './push.server'
import { vapidKeys, type VapidKeys } from './vapid.server'

/** What the push API reaches: the phones, and the hosts they may be on. */
export type OwnerPhones = Pick<Push, 'subscribe' | 'unsubscribe'> & { publicKey: string; hosts: string[] }

/** PUSH_HOSTS, the VAPID keys and subject, PUBLIC_URL, and the retries' base. */
export interface OwnerPhonesSettings {
  hosts: string[]
  keys: VapidKeys | null
  subject: string | null
  siteUrl: string | null
}

/**
 * The owner's phones told of each lead, on the delivery engine. Only a signed-in owner may have a
 * phone told, so only with OWNER_PASSWORD; and push services need to know whom to contact.
 * `cannotPush` says which is missing.
 */
export function tellOwnerPhones({
  engine,
  db,
  writes,
  settings,
  retryBaseMs,
  ownerRequired,
  log,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  writes: Writes
  /** The settings now: the subject follows VAPID_SUBJECT, NOTIFY_EMAIL and PUBLIC_URL as they change. */
  settings: () => OwnerPhonesSettings
  /** The first retry waits this long (NOTIFY_RETRY_SECONDS, as the mail's), then twice as long each time. */
  retryBaseMs: number
  ownerRequired: () => boolean
  log: Log
}) {
  // Made (or read) once: the phones already told keep the same pair whatever else changes.
  const keys = vapidKeys(db, settings().keys)
  const pushing = () => {
    const current = settings()
    return ownerRequired() && current.subject ? { keys, subject: current.subject, siteUrl: current.siteUrl } : null
  }
  const push = createPush({
    engine,
    db,
    writes,
    log,
    settings: pushing,
    retryBaseMs,
  })
  const anyPhone = db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).limit(1).prepare()
  return {
    /** Whether a phone of the team is told of leads now: the inbox's first-run list. */
    told: () => pushing() !== null && anyPhone.get() !== undefined,
    /** Null unless the owner's phones may be notified now. */
    phones(): OwnerPhones | null {
      return pushing()
        ? {
            publicKey: keys.publicKey,
            subscribe: push.subscribe,
            unsubscribe: push.unsubscribe,
            hosts: settings().hosts,
          }
        : null
    },
    /** Where each lead's pushes are owed (kept while push is off, sent once it is on). */
    queue: push,
    /** Why no phone can be notified of leads, or null when one can. */
    cannotPush(): string | null {
      return !ownerRequired()
        ? 'To be notified on this phone, claim the site first: an open inbox must never let a stranger subscribe to its leads.'
        : !pushing()
          ? 'To be notified on this phone, set up mail or the phone’s contact in the settings: push services need to know whom to contact.'
          : null
    },
  }
}
