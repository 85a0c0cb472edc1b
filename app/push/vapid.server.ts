import { createECDH } from 'node:crypto'
import type { FarmDatabase } from '#app/data/database.server'
import { keptKey } from '#app/data/signing-keys.server'

/** The site's VAPID key pair (base64url): the public key browsers subscribe with, the private one pushes are signed with. */
export interface VapidKeys {
  publicKey: string
  privateKey: string
}

const keyName = 'vapid'

/**
 * Whether a VAPID key pair set by hand is one: a P-256 public key (65 bytes) and the private key
 * (32 bytes) it comes from. Says what is wrong without repeating either key.
 */
export function vapidKeysError(keys: VapidKeys): string | null {
  const publicKey = Buffer.from(keys.publicKey, 'base64url')
  const privateKey = Buffer.from(keys.privateKey, 'base64url')
  if (!/^[A-Za-z0-9_-]+$/.test(keys.publicKey) || publicKey.length !== 65 || publicKey[0] !== 4) {
    return 'VAPID_PUBLIC_KEY must be a P-256 public key: 65 bytes in base64url (npx web-push generate-vapid-keys)'
  }
  if (!/^[A-Za-z0-9_-]+$/.test(keys.privateKey) || privateKey.length !== 32) {
    return 'VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes in base64url (npx web-push generate-vapid-keys)'
  }
  try {
    const pair = createECDH('prime256v1')
    pair.setPrivateKey(privateKey)
    if (!pair.getPublicKey().equals(publicKey)) throw new Error('not a pair')
  } catch {
    return 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not one key pair: set both from the same generate-vapid-keys'
  }
  return null
}

/** A new VAPID key pair, as `npx web-push generate-vapid-keys` makes one. */
export function newVapidKeys(): VapidKeys {
  const pair = createECDH('prime256v1')
  pair.generateKeys()
  const secret = pair.getPrivateKey()
  return {
    publicKey: pair.getPublicKey().toString('base64url'),
    // A private key with leading zero bytes comes back shorter; VAPID wants all 32.
    privateKey: Buffer.concat([Buffer.alloc(32 - secret.length), secret]).toString('base64url'),
  }
}

/**
 * The keys set in VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or else the pair made at the first start
 * and kept in the database, so a phone's subscription outlives restarts and restores. Never logged.
 */
export function vapidKeys(db: FarmDatabase, configured: VapidKeys | null): VapidKeys {
  if (configured) return configured
  return JSON.parse(keptKey(db, keyName, () => JSON.stringify(newVapidKeys()))) as VapidKeys
}
