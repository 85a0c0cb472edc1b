import { count, eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { pushSubscriptions } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { pushLimits } from './push-message'
import type { OwnerSubscription } from './push-subscription.server'

/** The phones the team turned notifications on for: at most 20, each a member's. */
export function createPhoneSubscriptions({ db, writes, now }: { db: FarmDatabase; writes: Writes; now: () => number }) {
  return {
    /**
     * Keeps a phone's subscription: 'added', 'known' (its keys refreshed), or 'full' when 20
     * phones are notified already.
     */
    async subscribe(subscription: OwnerSubscription, memberId: number): Promise<'added' | 'known' | 'full'> {
      return writes.whenFree(() =>
        db.transaction((tx) => {
          // A browser is whoever turned it on last: a phone passed from hand to hand is theirs now.
          const known = tx
            .update(pushSubscriptions)
            .set({ p256dh: subscription.p256dh, auth: subscription.auth, memberId })
            .where(eq(pushSubscriptions.endpoint, subscription.endpoint))
            .run()
          if (known.changes > 0) return 'known'
          const [phones] = tx.select({ n: count() }).from(pushSubscriptions).all()
          if ((phones?.n ?? 0) >= pushLimits.subscriptions) return 'full'
          tx.insert(pushSubscriptions)
            .values({ ...subscription, memberId, createdAt: new Date(now()) })
            .run()
          return 'added'
        }),
      )
    },
    /** Stops notifying a phone; false when it was not notified. Its pushes still owed go with it. */
    async unsubscribe(endpoint: string): Promise<boolean> {
      const gone = await writes.whenFree(() =>
        db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)).run(),
      )
      return gone.changes > 0
    },
  }
}
