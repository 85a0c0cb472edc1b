import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bucketKey, startBucketServer, type BucketServer } from '#tests/support/bucket-server'
import { openBucket, regionOf, type BucketSettings } from './bucket.server'

let server: BucketServer
let settings: BucketSettings
beforeAll(async () => {
  server = await startBucketServer()
  settings = { endpoint: server.endpoint, bucket: 'farm', region: 'us-east-1', ...bucketKey }
})
afterAll(() => server.close())

async function* inPieces(bytes: Buffer) {
  for (let at = 0; at < bytes.length; at += 1000) yield bytes.subarray(at, at + 1000)
}

async function bytesOf(stream: AsyncIterable<Uint8Array>) {
  const parts: Buffer[] = []
  for await (const part of stream) parts.push(Buffer.from(part))
  return Buffer.concat(parts)
}

describe('the bucket, against a real S3-compatible server (s3rver)', () => {
  it('puts a stream and a buffer, lists them by prefix, gets them back, and removes one', async () => {
    const bucket = openBucket(settings)
    const big = Buffer.alloc(25_000, 'field ')
    await bucket.put('farm-backups/one.sealed', inPieces(big), big.length)
    await bucket.put('farm-backups/two.sealed', Buffer.from('two'), 3)
    await bucket.put('elsewhere/three', Buffer.from('three'), 5)
    expect((await bucket.list('farm-backups/')).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'farm-backups/one.sealed', bytes: big.length },
      { name: 'farm-backups/two.sealed', bytes: 3 },
    ])
    expect((await bytesOf(await bucket.get('farm-backups/one.sealed'))).equals(big)).toBe(true)
    await bucket.remove('farm-backups/two.sealed')
    expect((await bucket.list('farm-backups/')).map((object) => object.name)).toEqual(['farm-backups/one.sealed'])
  })

  it('says a wrong key, a full bucket, a missing bucket and a silent address in plain words', async () => {
    await expect(openBucket({ ...settings, secret: 'not the secret' }).list('')).rejects.toMatchObject({
      kind: 'refused-key',
      message: 'The bucket refused the key: check the key and secret',
    })
    await expect(openBucket({ ...settings, accessKeyId: 'SOMEONE' }).list('')).rejects.toMatchObject({
      kind: 'refused-key',
    })
    await expect(openBucket({ ...settings, bucket: 'no-such' }).list('')).rejects.toMatchObject({
      kind: 'no-bucket',
      message: 'There is no bucket named no-such there: check its name',
    })
    server.setFull(true)
    try {
      await expect(openBucket(settings).put('farm-backups/x', Buffer.from('x'), 1)).rejects.toMatchObject({
        kind: 'full',
        message: 'The bucket is full',
      })
    } finally {
      server.setFull(false)
    }
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    })
    await expect(openBucket({ ...settings, endpoint: `http://127.0.0.1:${closed}` }).list('')).rejects.toMatchObject({
      kind: 'unreachable',
      message: `Nothing answered at 127.0.0.1:${closed} (ECONNREFUSED)`,
    })
  })
})

describe('the region signed with when none is set', () => {
  it('is the one in a provider’s address, auto for R2, else us-east-1', () => {
    expect(regionOf('https://s3.eu-central-003.backblazeb2.com')).toBe('eu-central-003')
    expect(regionOf('https://s3.fr-par.scw.cloud')).toBe('fr-par')
    expect(regionOf('https://s3.eu-central-1.wasabisys.com')).toBe('eu-central-1')
    expect(regionOf('https://s3.gra.io.cloud.ovh.net')).toBe('gra')
    expect(regionOf('https://s3.eu-west-1.amazonaws.com')).toBe('eu-west-1')
    expect(regionOf('https://0123abcd.r2.cloudflarestorage.com')).toBe('auto')
    expect(regionOf('http://127.0.0.1:9000')).toBe('us-east-1')
  })
})
