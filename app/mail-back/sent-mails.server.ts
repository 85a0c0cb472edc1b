import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { replies, subscribers, type DeliveryRow } from '#app/data/schema'
import { sentWithKey, visitorMailsOf } from '#app/delivery/reads.server'

/** The farm's mail a Message-ID names: a mail to a visitor (in `replies`), or one sent with it as its receipt key. */
export type Sent =
  | { kind: 'visitor-mail'; delivery: DeliveryRow; submissionId: number; address: string }
  | { kind: 'owner-mail'; delivery: DeliveryRow; submissionId: number; address: null }
  | { kind: 'update-mail'; delivery: DeliveryRow; subscriberId: number; address: string; updateId: number }

/** The first of these Message-IDs that the site sent, latest first; null when it sent none of them. */
export function sentMail(db: FarmDatabase, ids: string[]): Sent | null {
  for (const id of ids.slice(0, 100)) {
    const reply = db
      .select({ id: replies.id, submissionId: replies.submissionId, address: replies.toAddress })
      .from(replies)
      .where(eq(replies.messageId, id))
      .get()
    const mail = reply && visitorMailsOf(db, [reply.id]).get(reply.id)
    if (reply && mail)
      return { kind: 'visitor-mail', delivery: mail, submissionId: reply.submissionId, address: reply.address }
    const key = /^<((?:lead|update)\.[0-9a-f]{32})@[^<>@\s]+>$/i.exec(id)?.[1]
    if (!key) continue
    const delivery = sentWithKey(db, key.toLowerCase())
    if (delivery?.kind === 'owner-mail' && delivery.submissionId !== null) {
      return { kind: 'owner-mail', delivery, submissionId: delivery.submissionId, address: null }
    }
    if (delivery?.kind === 'update-mail' && delivery.subscriberId !== null && delivery.updateId !== null) {
      const to = db
        .select({ email: subscribers.email })
        .from(subscribers)
        .where(eq(subscribers.id, delivery.subscriberId))
        .get()
      if (to) {
        return {
          kind: 'update-mail',
          delivery,
          subscriberId: delivery.subscriberId,
          address: to.email,
          updateId: delivery.updateId,
        }
      }
    }
  }
  return null
}
