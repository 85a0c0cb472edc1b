import type { FarmDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import type { SignedLinks } from './signed-links.server'
import { subscriberLookups } from './subscriber-lookups.server'
import { createSubscribersByOwner } from './subscribers-by-owner.server'
import { consentWordsIn, createSubscribingByLink } from './subscribing-by-link.server'

export { subscriberLimits } from './subscribers-by-owner.server'

/**
 * Who gets the farm's updates, by their own confirmed consent: asked once (inside the
 * transaction that keeps their clean lead), subscribed only by the POST of their signed link,
 * unsubscribed by theirs in one click, and never asked or mailed again once they left.
 */
export function createSubscribers({
  db,
  writes,
  links,
  farmName,
  leftBeforeForgetting = () => false,
  now = () => new Date(),
}: {
  db: FarmDatabase
  writes: Writes
  links: SignedLinks
  farmName: () => string
  /** Whether the address's mailbox had left the updates when it was forgotten: an unsubscribe outlives erasure. */
  leftBeforeForgetting?: (address: string) => boolean
  now?: () => Date
}) {
  const lookups = subscriberLookups(db)
  return {
    /** The words a visitor asked in this language says yes to. */
    consentWords: (language: string | null) => consentWordsIn(language, farmName()),
    ...createSubscribingByLink({ db, writes, links, farmName, lookups, leftBeforeForgetting, now }),
    ...createSubscribersByOwner({ db, writes, lookups, leftBeforeForgetting, now }),
  }
}

export type Subscribers = ReturnType<typeof createSubscribers>
