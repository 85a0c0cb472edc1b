import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { mailSuppressions, returnedMails, subscribers } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { ReturnedMail } from './update'

/** The latest this many are listed; older ones stay counted in the rates. */
export const returnedOnPage = 20

/**
 * The bounces and complaints read back from the farm's mailbox: listed, each readable as it came
 * (as text), and the stop one made undone when it was made in error (a vacation reply read as a
 * bounce): the address is mailed again, and a bounced subscriber gets updates again. A complaint's
 * unsubscribing stays: only they can say yes again.
 */
export function createReturnedMails({ db, writes }: { db: FarmDatabase; writes: Writes }) {
  return {
    latest(): ReturnedMail[] {
      const rows = db
        .select({
          id: returnedMails.id,
          kind: returnedMails.kind,
          address: returnedMails.address,
          permanent: returnedMails.permanent,
          status: returnedMails.status,
          words: returnedMails.words,
          receivedAt: returnedMails.receivedAt,
          addressKey: returnedMails.addressKey,
        })
        .from(returnedMails)
        .orderBy(desc(returnedMails.id))
        .limit(returnedOnPage)
        .all()
      // Each address's stop, by its key (the table's own): which of these mails made it.
      const stoppedBy = new Set(
        db
          .select({ id: mailSuppressions.returnedMailId })
          .from(mailSuppressions)
          .where(
            inArray(
              mailSuppressions.addressKey,
              rows.map(({ addressKey }) => addressKey),
            ),
          )
          .all()
          .map(({ id }) => id),
      )
      return rows.map(({ addressKey: _key, ...row }) => ({
        ...row,
        receivedAt: row.receivedAt.toISOString(),
        stopped: stoppedBy.has(row.id),
      }))
    },

    /** One as it came, as text; null when there is none. */
    source(id: number): string | null {
      return (
        db.select({ source: returnedMails.source }).from(returnedMails).where(eq(returnedMails.id, id)).get()?.source ??
        null
      )
    },

    /** Mails the address again: false when this mail stopped nothing (or no longer does). */
    async undo(id: number): Promise<boolean> {
      return writes.whenFree(() =>
        db.transaction((tx) => {
          const stop = tx
            .select({ addressKey: mailSuppressions.addressKey, kind: mailSuppressions.kind })
            .from(mailSuppressions)
            .innerJoin(returnedMails, eq(returnedMails.addressKey, mailSuppressions.addressKey))
            .where(and(eq(returnedMails.id, id), eq(mailSuppressions.returnedMailId, id)))
            .get()
          if (!stop) return false
          tx.delete(mailSuppressions).where(eq(mailSuppressions.addressKey, stop.addressKey)).run()
          // A complaint unsubscribed them: only they can say yes again (by a form's ask).
          if (stop.kind === 'bounce') {
            tx.update(subscribers)
              .set({ status: 'subscribed', lastError: null, unsubscribedAt: null })
              .where(
                and(
                  eq(subscribers.addressKey, stop.addressKey),
                  eq(subscribers.status, 'undeliverable'),
                  isNotNull(subscribers.subscribedAt),
                ),
              )
              .run()
          }
          return true
        }),
      )
    },
  }
}

export type ReturnedMails = ReturnType<typeof createReturnedMails>
