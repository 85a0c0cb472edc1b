import type { FarmDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { Log } from '#app/log'
import { createReturnedMails } from './returned-mails.server'
import { createSignedLinks } from './signed-links.server'
import { createSubscribers } from './subscribers.server'
import type { UpdatesDesk } from './update-requests.server'
import { createUpdateSender, type UpdateMailSettings } from './update-sender.server'
import { createUpdates } from './updates.server'

/**
 * Updates and offers (UPDATES): the subscribers and their consent, the signed links, the
 * owner's desk, and the sender at its pace on the delivery engine. Sending needs a signed-in
 * owner, so never from an open inbox; `cannotSendUpdates` says what to set. Each is read with
 * the settings of the moment, so turning updates on or off takes no restart.
 */
export function offerUpdates({
  engine,
  db,
  writes,
  settings,
  retryBaseMs,
  farmName,
  products,
  ownerRequired,
  leftBeforeForgetting,
  log,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  writes: Writes
  /** The settings now: null unless updates are on (which needs the owner's mail and PUBLIC_URL). */
  settings: () => UpdateMailSettings | null
  retryBaseMs: number
  farmName: () => string
  products: () => string[]
  ownerRequired: () => boolean
  /** Whether an address had left the updates before it was forgotten (the data's lifecycle knows). */
  leftBeforeForgetting: (address: string) => boolean
  log: Log
}) {
  const links = createSignedLinks({ db, publicUrl: () => settings()?.siteUrl ?? '' })
  const sender = createUpdateSender({ engine, db, links, settings, retryBaseMs })
  const parts = {
    subscribers: createSubscribers({ db, writes, links, farmName, leftBeforeForgetting }),
    updates: createUpdates({ db, writes, products, queued: sender.wake }),
    returned: createReturnedMails({ db, writes }),
    links,
    sendNow: sender.sendNow,
  }
  const said = (on: UpdateMailSettings | null) => {
    if (on?.siteUrl.startsWith('http:')) {
      log.warn({}, 'PUBLIC_URL is not https://: mail programs only offer one-click unsubscribe for https links')
    }
  }
  said(settings())
  return {
    /** Who is subscribed, asked or left: links in mails sent while updates were on keep working once they are off. */
    subscribers: parts.subscribers,
    /** Null unless updates are on: the subscribers, the updates and their mail. */
    desk(): UpdatesDesk | null {
      const on = settings()
      return on ? { ...parts, settings: on } : null
    },
    /** What the updates sent lately did, whether updates are on now or not: the insights read it. */
    reportsSince: parts.updates.reportsSince,
    /** Why the owner cannot send updates from here, or null when they can. */
    cannotSendUpdates(): string | null {
      return !ownerRequired()
        ? 'To send updates, claim the site first: an open inbox must never let a stranger mail every subscriber.'
        : !settings()
          ? 'To send updates and offers, turn them on in the settings (they need mail and the site’s public address).'
          : null
    },
    /** After a change of settings: a queued update goes on at once, and a warning is said again. */
    settingsChanged() {
      said(settings())
      sender.wake()
    },
  }
}
