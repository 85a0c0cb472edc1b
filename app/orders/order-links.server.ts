import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { FarmDatabase } from '#app/data/database.server'
import { keptKey } from '#app/data/signing-keys.server'

// `12.<43 characters>`: digits and base64url only.
const tokenShape = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/

/**
 * The link in an order's confirmation that shows the visitor their order and lets them cancel it:
 * signed (HMAC-SHA256) for this one purpose and this one order with a key of its own, kept in the
 * database, so no one can make one for another order and it still works after a restore.
 */
export function createOrderLinks({ db, publicUrl }: { db: FarmDatabase; publicUrl: () => string }) {
  const key = Buffer.from(
    keptKey(db, 'orders', () => randomBytes(32).toString('base64')),
    'base64',
  )
  const sign = (orderId: number) => createHmac('sha256', key).update(`order\n${orderId}`).digest('base64url')

  return {
    url: (orderId: number): string => `${publicUrl()}/order?token=${orderId}.${sign(orderId)}`,
    /** The order a token is for, or null when it is not one this site signed. */
    orderOf(token: string): number | null {
      const parts = tokenShape.exec(token)
      if (!parts) return null
      const orderId = Number(parts[1])
      const expected = sign(orderId)
      return parts[2]!.length === expected.length && timingSafeEqual(Buffer.from(parts[2]!), Buffer.from(expected))
        ? orderId
        : null
    },
  }
}

export type OrderLinks = ReturnType<typeof createOrderLinks>
