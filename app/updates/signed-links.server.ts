import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { FarmDatabase } from '#app/data/database.server'
import { keptKey } from '#app/data/signing-keys.server'

/** How long a link asking someone to confirm works. */
export const confirmLinkDays = 7
const dayMs = 24 * 60 * 60 * 1000
const keyName = 'updates'

/** What one link does: it is signed for this purpose and this mailbox only. */
type Purpose = 'confirm' | 'unsubscribe'

/** A link's token, read: whose it is, and until when it works (confirm links only). */
export interface ReadToken {
  subscriberId: number
  expiresAt: number | null
  signature: string
}

// `12.m0abc.<43 characters>` or `12.<43 characters>`: digits, base 36 and base64url only.
const confirmShape = /^([1-9]\d{0,15})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/
const unsubscribeShape = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/

/**
 * The updates' links, each signed (HMAC-SHA256) for one purpose and one mailbox with a key made
 * once and kept in the database, so links in mails sent months ago still work after a restart or
 * a restore, and no one can make one for an address, nor turn one address's link into another's.
 */
export function createSignedLinks({ db, publicUrl }: { db: FarmDatabase; publicUrl: () => string }) {
  // Made now, at start, rather than on the first link (which could meet another process's lock).
  const key = Buffer.from(
    keptKey(db, keyName, () => randomBytes(32).toString('base64')),
    'base64',
  )

  const sign = (purpose: Purpose, subscriberId: number, addressKey: string, expiresAt: number | null) =>
    createHmac('sha256', key)
      .update([purpose, subscriberId, addressKey, expiresAt ?? ''].join('\n'))
      .digest('base64url')

  const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

  return {
    confirmUrl(subscriberId: number, addressKey: string, askedAt: Date): string {
      const expiresAt = askedAt.getTime() + confirmLinkDays * dayMs
      const token = `${subscriberId}.${expiresAt.toString(36)}.${sign('confirm', subscriberId, addressKey, expiresAt)}`
      return `${publicUrl()}/updates/confirm?token=${token}`
    },
    unsubscribeUrl(subscriberId: number, addressKey: string): string {
      return `${publicUrl()}/updates/unsubscribe?token=${subscriberId}.${sign('unsubscribe', subscriberId, addressKey, null)}`
    },
    /** A token's parts when it has the shape of one for this purpose; check it with `holds`. */
    read(purpose: Purpose, token: string): ReadToken | null {
      const parts = (purpose === 'confirm' ? confirmShape : unsubscribeShape).exec(token)
      if (!parts) return null
      const expiresAt = purpose === 'confirm' ? parseInt(parts[2]!, 36) : null
      return { subscriberId: Number(parts[1]), expiresAt, signature: parts.at(-1)! }
    },
    /** Whether the token was signed for this purpose and this mailbox. */
    holds(purpose: Purpose, token: ReadToken, addressKey: string): boolean {
      return same(token.signature, sign(purpose, token.subscriberId, addressKey, token.expiresAt))
    },
  }
}

export type SignedLinks = ReturnType<typeof createSignedLinks>
