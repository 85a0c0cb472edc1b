import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { backupOfSealed, bucketPrefix, sealedName } from './bucket-copies.server'
import { openBucket, type Bucket, type BucketSettings } from './bucket.server'
import { openSealed } from './sealed-copy.server'

/** The backups the bucket holds, newest first, by the names they had here, with their copies' sizes. */
async function copiesIn(bucket: Bucket): Promise<Array<{ name: string; bytes: number }>> {
  return (await bucket.list(bucketPrefix))
    .flatMap((object) => {
      const name = backupOfSealed(object.name)
      return name ? [{ name, bytes: object.bytes }] : []
    })
    .sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0))
}

/** The backups the bucket holds, newest first, by the names they had here. */
export const backupsInBucket = async (settings: BucketSettings): Promise<string[]> =>
  (await copiesIn(openBucket(settings))).map((copy) => copy.name)

/** A download that stops at the size the bucket listed: a bucket that sends more fills no disk. */
async function* noMoreThan(source: AsyncIterable<Uint8Array>, bytes: number): AsyncIterable<Uint8Array> {
  let size = 0
  for await (const piece of source) {
    if ((size += piece.length) > bytes)
      throw new Error('The bucket sent more than the copy it listed: nothing was written.')
    yield piece
  }
}

/**
 * Fetches one backup's sealed copy from the bucket (the newest, or the one named) and opens it
 * with the owner's key into `dir`, under its own name (or another when a file has that name):
 * the file `npm run restore` then checks and installs as any other. A wrong key or a changed copy
 * writes nothing.
 */
export async function fetchFromBucket({
  settings,
  key,
  dir,
  name,
}: {
  settings: BucketSettings
  key: Buffer
  dir: string
  name?: string
}): Promise<{ name: string; file: string; inBucket: string[] }> {
  const bucket = openBucket(settings)
  const copies = await copiesIn(bucket)
  const inBucket = copies.map((copy) => copy.name)
  const wanted = copies.find((copy) => copy.name === (name ?? inBucket[0]))
  if (!inBucket[0]) throw new Error(`The bucket ${settings.bucket} holds no backup of this site.`)
  if (!wanted) {
    throw new Error(`The bucket holds no ${name}. It holds: ${inBucket.slice(0, 20).join(', ') || 'none'}.`)
  }
  mkdirSync(dir, { recursive: true })
  let file = join(dir, wanted.name)
  for (let n = 2; existsSync(file); n++) file = join(dir, `from-bucket-${n}-${wanted.name}`)
  await openSealed(noMoreThan(await bucket.get(sealedName(wanted.name)), wanted.bytes), key, file)
  return { name: wanted.name, file, inBucket }
}
