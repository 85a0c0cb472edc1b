import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto'
import type { FarmDatabase } from '#app/data/database.server'
import { keptKey } from '#app/data/signing-keys.server'
import type { DkimKey } from './dkim-sign.server'

/**
 * What the signature covers: who it is from and to, what it is, its place in a thread, how it is
 * built, and the list's headers (RFC 8058 §4: List-Unsubscribe-Post must be signed for one-click
 * to be trusted). Each is signed once more than it appears (dkim-sign.server.ts), so none can be
 * added later, present or not.
 */
export const signedHeaders = [
  'From',
  'To',
  'Subject',
  'Date',
  'Message-ID',
  'Reply-To',
  'In-Reply-To',
  'References',
  'MIME-Version',
  'Content-Type',
  'List-Id',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
]

/** The domain of an address, as DKIM's d= names it. */
export const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase()

/**
 * The farm's DKIM key: DKIM_PRIVATE_KEY when set, else an RSA key made once and kept
 * with the other signing keys (so a restore keeps the published record valid). Every mail the site
 * sends is signed with it for its From domain, under the selector the settings name.
 */
export function createDkim({
  db,
  privateKey,
  selector,
}: {
  db: FarmDatabase
  /** DKIM_PRIVATE_KEY, PEM; null to make one and keep it. */
  privateKey: string | null
  /** DKIM_SELECTOR now. */
  selector: () => string
}) {
  // Made (or read) with the first mail or the first look at the records, not at start: a site that
  // never sends mail never pays for an RSA key, and a start stays as quick as it was.
  let made: { key: string; record: string } | undefined
  const keyNow = () =>
    (made ??= ((key: string) => ({
      key,
      record: `v=DKIM1; k=rsa; p=${createPublicKey(createPrivateKey(key)).export({ type: 'spki', format: 'der' }).toString('base64')}`,
    }))(
      privateKey ??
        keptKey(db, 'dkim', () =>
          generateKeyPairSync('rsa', { modulusLength: 2048 })
            .privateKey.export({ type: 'pkcs8', format: 'pem' })
            .toString(),
        ),
    ))
  return {
    selector,
    /** The TXT record to publish at `{selector}._domainkey.{domain}`. */
    get record() {
      return keyNow().record
    },
    /** The key a mail from this address is signed with, for its domain. */
    keyFor(fromAddress: string): DkimKey {
      return { domainName: domainOf(fromAddress), keySelector: selector(), privateKey: keyNow().key }
    },
  }
}

export type Dkim = ReturnType<typeof createDkim>
