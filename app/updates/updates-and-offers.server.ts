import type { OpenDatabase } from '#app/data/database.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { Log } from '#app/log'
import { createSignedLinks } from './signed-links.server'
import { createSubscribers } from './subscribers.server'
import type { UpdatesDesk } from './update-requests.server'
import { createUpdateSender, type UpdateMailSettings } from './update-sender.server'
import { createUpdates } from './updates.server'

/**
 * Updates and offers (UPDATES=true): the subscribers and their consent, the signed links, the
 * owner's desk, and the sender at its pace on the delivery engine. Sending needs a signed-in
 * owner, so never from an open inbox; `cannotSendUpdates` says what to set.
 */
export function offerUpdates({
  engine,
  database,
  settings,
  farmName,
  products,
  ownerRequired,
  leftBeforeForgetting,
  log,
}: {
  engine: DeliveryEngine
  database: OpenDatabase
  /** Null unless UPDATES=true (which needs the owner's mail and PUBLIC_URL). */
  settings: UpdateMailSettings | null
  farmName: string
  products: string[]
  ownerRequired: boolean
  /** Whether an address had left the updates before it was forgotten (the data's lifecycle knows). */
  leftBeforeForgetting: (address: string) => boolean
  log: Log
}) {
  const { db, writes } = database
  let desk: UpdatesDesk | null = null
  if (settings) {
    const links = createSignedLinks({ db, publicUrl: settings.siteUrl })
    const sender = createUpdateSender({ engine, db, writes, log, links, settings })
    desk = {
      subscribers: createSubscribers({ db, writes, links, farmName, leftBeforeForgetting }),
      updates: createUpdates({ db, writes, products, queued: sender.wake }),
      links,
      settings,
      sendNow: sender.sendNow,
    }
    if (settings.siteUrl.startsWith('http:')) {
      log.warn({}, 'PUBLIC_URL is not https://: mail programs only offer one-click unsubscribe for https links')
    }
  }
  return {
    /** Null unless UPDATES=true: the subscribers, the updates and their mail. */
    desk,
    /** Why the owner cannot send updates from here, or null when they can. */
    cannotSendUpdates: !settings
      ? 'To send updates and offers, set UPDATES=true (with SMTP_URL, NOTIFY_EMAIL and PUBLIC_URL) and restart the site.'
      : !ownerRequired
        ? 'To send updates, set OWNER_PASSWORD: an open inbox must never let a stranger mail every subscriber.'
        : null,
  }
}
