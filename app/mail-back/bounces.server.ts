import { and, count, eq, gte, inArray } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { mailSuppressions, returnedMails, subscribers } from '#app/data/schema'
import { deliveryRecord } from '#app/delivery/record.server'
import { mailboxKey } from '#app/leads/mailbox'
import type { Mark } from './mailbox-marks.server'
import type { ReadBack } from './read-back.server'
import type { Sent } from './sent-mails.server'

// Temporary failures of one address within this window count as a permanent one from the third.
const temporaryWindowMs = 30 * 24 * 60 * 60 * 1000
const temporaryFailuresForGood = 3

/** Ends the stop a bounce put on an address that wrote again (a complaint's never ends this way). */
export function liftBounceStop(db: FarmDatabase, address: string) {
  db.delete(mailSuppressions)
    .where(and(eq(mailSuppressions.addressKey, mailboxKey(address)), eq(mailSuppressions.kind, 'bounce')))
    .run()
}

/** The bounces and complaints of the farm's mails, and the stop they put on mailing an address unasked. */
export function createBounces({
  db,
  now,
  moveMark,
}: {
  db: FarmDatabase
  now: () => Date
  moveMark: (mark: Mark) => void
}) {
  const record = deliveryRecord(db)

  /** Stops mailing an address unasked (updates, acknowledgements) until it writes again. */
  function suppress(addressKey: string, kind: 'bounce' | 'complaint', returnedMailId: number, words: string | null) {
    db.insert(mailSuppressions)
      .values({ addressKey, kind, returnedMailId, since: now() })
      .onConflictDoUpdate({ target: mailSuppressions.addressKey, set: { kind, returnedMailId, since: now() } })
      .run()
    db.update(subscribers)
      .set(
        kind === 'complaint'
          ? { status: 'unsubscribed', unsubscribedBy: 'them', unsubscribedAt: now() }
          : { status: 'undeliverable', lastError: words, unsubscribedAt: now() },
      )
      .where(and(eq(subscribers.addressKey, addressKey), inArray(subscribers.status, ['asked', 'subscribed'])))
      .run()
  }

  /** Whether an address failed temporarily often enough within the window to count as failing for good. */
  function failingForGood(addressKey: string, at: Date) {
    // Temporary failures count by the mails that failed (one row each), within the window.
    const [temporary] = db
      .select({ n: count() })
      .from(returnedMails)
      .where(
        and(
          eq(returnedMails.addressKey, addressKey),
          eq(returnedMails.kind, 'bounce'),
          eq(returnedMails.permanent, false),
          gte(returnedMails.receivedAt, new Date(at.getTime() - temporaryWindowMs)),
        ),
      )
      .all()
    return (temporary?.n ?? 0) >= temporaryFailuresForGood
  }

  /**
   * A bounce or complaint of one of the farm's mails, recorded once per mail (a report sent again,
   * or forged again, adds nothing), only ever about the address that mail went to: anyone who got
   * one of the farm's mails could write a report naming someone else. A bounce of the owner's own
   * mail only marks that mail: the owner is never stopped, and no stranger's words are kept.
   */
  return function recordReturned(
    read: Extract<ReadBack, { kind: 'bounce' | 'complaint' }>,
    sent: Sent,
    source: Buffer,
    mark: Mark,
  ) {
    const at = now()
    db.transaction(() => {
      moveMark(mark)
      const failure =
        read.kind === 'bounce'
          ? (read.failures.find(
              (each) => sent.address !== null && mailboxKey(each.address) === mailboxKey(sent.address),
            ) ??
              // A report that does not name the address it came back from is counted, never a stop on its own.
              { ...(read.failures[0] ?? { status: null, words: 'Returned without a reason' }), permanent: false })
          : null
      if (sent.kind === 'owner-mail') {
        if (failure) record.bounced(sent.delivery.id, failure.words)
        return
      }
      const addressKey = mailboxKey(sent.address)
      const row = db
        .insert(returnedMails)
        .values({
          kind: read.kind,
          deliveryId: sent.delivery.id,
          updateId: sent.kind === 'update-mail' ? sent.updateId : null,
          address: sent.address,
          addressKey,
          permanent: failure ? failure.permanent : true,
          status: failure?.status ?? null,
          words: failure ? failure.words : 'Reported as spam',
          source: source.toString('utf8'),
          receivedAt: at,
        })
        .onConflictDoNothing()
        .returning({ id: returnedMails.id })
        .get()
      if (!row) return
      if (!failure) return suppress(addressKey, 'complaint', row.id, null)
      record.bounced(sent.delivery.id, failure.words)
      if (failure.permanent || failingForGood(addressKey, at)) {
        suppress(addressKey, 'bounce', row.id, failure.words)
      }
    })
  }
}
