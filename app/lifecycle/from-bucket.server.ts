import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { backupOfSealed, bucketPrefix, sealedName } from './bucket-copies.server'
import { openBucket, type BucketSettings } from './bucket.server'
import { openSealed } from './sealed-copy.server'

/** The backups the bucket holds, newest first, by the names they had here. */
export async function backupsInBucket(settings: BucketSettings): Promise<string[]> {
  const objects = await openBucket(settings).list(bucketPrefix)
  return objects
    .map((object) => backupOfSealed(object.name))
    .filter((name): name is string => name !== null)
    .sort()
    .reverse()
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
  const inBucket = await backupsInBucket(settings)
  const wanted = name ?? inBucket[0]
  if (!wanted) throw new Error(`The bucket ${settings.bucket} holds no backup of this site.`)
  if (!inBucket.includes(wanted)) {
    throw new Error(`The bucket holds no ${wanted}. It holds: ${inBucket.slice(0, 20).join(', ') || 'none'}.`)
  }
  mkdirSync(dir, { recursive: true })
  let file = join(dir, wanted)
  for (let n = 2; existsSync(file); n++) file = join(dir, `from-bucket-${n}-${wanted}`)
  await openSealed(await openBucket(settings).get(sealedName(wanted)), key, file)
  return { name: wanted, file, inBucket }
}
