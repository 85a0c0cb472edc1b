import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  timingSafeEqual,
  type DecipherGCM,
} from 'node:crypto'
import { createReadStream, createWriteStream, statSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'

/**
 * A backup sealed on this machine before it leaves: AES-256-GCM with the farm's own 32-byte key.
 * The file is a header (the magic FARMSEAL, a version, eight bytes that tell a wrong key at once,
 * the random 12-byte nonce), the ciphertext, and GCM's 16-byte tag; the header is authenticated
 * with the rest, so no byte of it can be changed either (decision 036).
 */
const magic = Buffer.from('FARMSEAL', 'latin1')
const version = 1
const checkBytes = 8
const nonceBytes = 12
const tagBytes = 16
const headerBytes = magic.length + 1 + checkBytes + nonceBytes

/** Said when a copy cannot be opened: the owner's words, never a stack trace. */
export class SealError extends Error {}

/** A new key, made on this machine: 32 random bytes. */
export const newSealKey = () => randomBytes(32)

/** How the key is shown to the owner, and typed back: base64url, 43 characters. */
export const keyText = (key: Buffer) => key.toString('base64url')

/** The key as the owner typed it back (spaces and line breaks dropped; base64 or base64url), or why not. */
export function readKeyText(text: string): Buffer {
  const compact = text.replace(/\s+/g, '')
  const key = /^[A-Za-z0-9_\-+/]+=*$/.test(compact) ? Buffer.from(compact, 'base64url') : Buffer.alloc(0)
  if (key.length !== 32 || keyText(key) !== compact.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')) {
    throw new SealError(
      'That is not the bucket’s key: it is the 43 letters, digits, - and _ the settings page showed once.',
    )
  }
  return key
}

/** Eight bytes that tell which key sealed a copy, and nothing of the key itself. */
const keyCheck = (key: Buffer) =>
  createHmac('sha256', key).update('farm backup key check').digest().subarray(0, checkBytes)

/** The sealed copy's size for a backup of `bytes`: GCM adds no padding. */
export const sealedBytes = (bytes: number) => headerBytes + bytes + tagBytes

/** A file sealed as it is read, for an upload; `bytes` is what it will weigh. */
export function sealFile(file: string, key: Buffer): { stream: AsyncIterable<Uint8Array>; bytes: number } {
  const bytes = sealedBytes(statSync(file).size)
  async function* sealed() {
    const nonce = randomBytes(nonceBytes)
    const header = Buffer.concat([magic, Buffer.from([version]), keyCheck(key), nonce])
    const cipher = createCipheriv('aes-256-gcm', key, nonce)
    cipher.setAAD(header)
    yield header
    for await (const chunk of createReadStream(file)) yield cipher.update(chunk as Buffer)
    const last = cipher.final()
    if (last.length > 0) yield last
    yield cipher.getAuthTag()
  }
  return { stream: sealed(), bytes }
}

const wrongKey =
  'This key does not open the bucket’s copies: it is not the one the settings page showed when the bucket was set up.'
const changed = 'The copy was changed after it was sealed (or cut short): it cannot be trusted. Try another copy.'

/** The header's checks: a copy of this site, a version it reads, sealed with this key. */
function openHeader(header: Buffer, key: Buffer): DecipherGCM {
  if (header.length < headerBytes || !header.subarray(0, magic.length).equals(magic)) {
    throw new SealError('That is not a sealed backup of this site.')
  }
  if (header[magic.length] !== version) throw new SealError('That copy was sealed by a newer version of the site.')
  if (!timingSafeEqual(header.subarray(magic.length + 1, magic.length + 1 + checkBytes), keyCheck(key))) {
    throw new SealError(wrongKey)
  }
  const decipher = createDecipheriv('aes-256-gcm', key, header.subarray(headerBytes - nonceBytes, headerBytes))
  decipher.setAAD(header.subarray(0, headerBytes))
  return decipher
}

/** The plain bytes of a sealed stream, the tag checked at its end (GCM's check throws then). */
async function* opened(source: AsyncIterable<Uint8Array>, key: Buffer) {
  let waiting = Buffer.alloc(0)
  let decipher: DecipherGCM | null = null
  for await (const chunk of source) {
    waiting = Buffer.concat([waiting, chunk])
    if (!decipher) {
      if (waiting.length < headerBytes) continue
      decipher = openHeader(waiting, key)
      waiting = waiting.subarray(headerBytes)
    }
    // The last 16 bytes may be the tag: held back until the stream ends.
    if (waiting.length > tagBytes) {
      yield decipher.update(waiting.subarray(0, waiting.length - tagBytes))
      waiting = waiting.subarray(waiting.length - tagBytes)
    }
  }
  if (!decipher)
    throw new SealError(waiting.length === 0 ? 'The copy is empty.' : 'That is not a sealed backup of this site.')
  if (waiting.length < tagBytes) throw new SealError(changed)
  decipher.setAuthTag(waiting)
  try {
    yield decipher.final()
  } catch {
    throw new SealError(changed)
  }
}

/**
 * Opens a sealed copy into `target`: written only when every byte and the tag hold; otherwise the
 * file is removed and the reason said in plain words.
 */
export async function openSealed(source: AsyncIterable<Uint8Array>, key: Buffer, target: string) {
  try {
    await pipeline(opened(source, key), createWriteStream(target, { mode: 0o600 }))
  } catch (error) {
    await rm(target, { force: true })
    if (error instanceof SealError) throw error
    throw new SealError(`The copy could not be read: ${(error as Error).message}`)
  }
}
