import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { keyText, newSealKey, openSealed, readKeyText, SealError, sealedBytes, sealFile } from './sealed-copy.server'

const folder = () => mkdtempSync(join(tmpdir(), 'farm-seal-'))

async function bytesOf(stream: AsyncIterable<Uint8Array>) {
  const parts: Buffer[] = []
  for await (const part of stream) parts.push(Buffer.from(part))
  return Buffer.concat(parts)
}

async function* inPieces(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

function plainFile(dir: string, bytes: Buffer) {
  const file = join(dir, 'farm.db')
  writeFileSync(file, bytes)
  return file
}

describe('a sealed copy', () => {
  it('opens back to the very bytes with its key, however the stream is cut, and weighs what was said', async () => {
    const dir = folder()
    const plain = Buffer.concat([Buffer.from('Ada Lovelace ada@example.com '), randomBytes(200_000)])
    const key = newSealKey()
    const { stream, bytes } = sealFile(plainFile(dir, plain), key)
    const sealed = await bytesOf(stream)
    expect(sealed.length).toBe(bytes)
    expect(bytes).toBe(sealedBytes(plain.length))
    expect(sealed.subarray(0, 8).toString('latin1')).toBe('FARMSEAL')
    expect(sealed.includes(Buffer.from('ada@example.com'))).toBe(false)
    for (const size of [1, 7, 16, 17, 65_536]) {
      const target = join(dir, `opened-${size}.db`)
      await openSealed(inPieces(sealed, size), key, target)
      expect(readFileSync(target).equals(plain)).toBe(true)
    }
  })

  it('refuses another key at once, in plain words, and writes nothing', async () => {
    const dir = folder()
    const { stream } = sealFile(plainFile(dir, randomBytes(1000)), newSealKey())
    const target = join(dir, 'opened.db')
    const opening = openSealed(inPieces(await bytesOf(stream), 100), newSealKey(), target)
    await expect(opening).rejects.toThrow(SealError)
    await expect(opening).rejects.toThrow(/This key does not open the bucket’s copies/)
    expect(existsSync(target)).toBe(false)
  })

  it('refuses a copy with any byte changed (header, body or tag), or cut short', async () => {
    const dir = folder()
    const key = newSealKey()
    const { stream } = sealFile(plainFile(dir, randomBytes(5000)), key)
    const sealed = await bytesOf(stream)
    // The version byte, a nonce byte, a body byte, the tag's last byte.
    for (const at of [8, 20, 2000, sealed.length - 1]) {
      const tampered = Buffer.from(sealed)
      tampered[at]! ^= 1
      const target = join(dir, `t-${at}.db`)
      await expect(openSealed(inPieces(tampered, 512), key, target)).rejects.toThrow(SealError)
      expect(existsSync(target)).toBe(false)
    }
    await expect(
      openSealed(inPieces(sealed.subarray(0, sealed.length - 5), 512), key, join(dir, 'cut.db')),
    ).rejects.toThrow(/changed after it was sealed \(or cut short\)/)
  })

  it('refuses what is not a sealed copy', async () => {
    const dir = folder()
    await expect(
      openSealed(inPieces(Buffer.from('SQLite format 3\0'.repeat(10)), 64), newSealKey(), join(dir, 'x.db')),
    ).rejects.toThrow('That is not a sealed backup of this site.')
  })
})

describe('the key as the owner keeps it', () => {
  it('is 43 characters, read back with spaces or as plain base64, and anything else refused', () => {
    const key = newSealKey()
    const text = keyText(key)
    expect(text).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(readKeyText(` ${text.slice(0, 20)}\n${text.slice(20)} `).equals(key)).toBe(true)
    expect(readKeyText(key.toString('base64')).equals(key)).toBe(true)
    for (const wrong of ['', text.slice(0, 42), `${text}A`, 'not a key at all, no']) {
      expect(() => readKeyText(wrong)).toThrow(/That is not the bucket’s key/)
    }
  })
})
