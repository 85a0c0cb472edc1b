import type { Log } from '#app/log'
import { listBackups } from './backup-files.server'
import { BucketError, openBucket, type BucketSettings } from './bucket.server'
import { SealError, sealFile } from './sealed-copy.server'

/** The bucket's copies have names of their own: the backup's, which says only when it was taken. */
export const bucketPrefix = 'farm-backups/'
const sealedPattern = /^farm-backups\/(farm-\d{8}-\d{6}\.db)\.sealed$/
export const sealedName = (backup: string) => `${bucketPrefix}${backup}.sealed`
/** The backup a copy in the bucket is of, or null for any other object (never removed). */
export const backupOfSealed = (name: string) => sealedPattern.exec(name)?.[1] ?? null

/** What /healthz says of the bucket: no name, no words. */
export type OffsiteState = 'off' | 'ok' | 'failing'

/** Retries wait twice as long each time, at most this long. */
const longestWaitMs = 60 * 60_000

/** Why a copy failed, in the owner's words, never a secret (the bucket's words hold none of it). */
function wordsOf(error: unknown): string {
  if (error instanceof BucketError || error instanceof SealError) return error.message
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT'
    ? 'a backup was removed while it was being copied'
    : `the copy could not be made (${code ?? (error as Error).message})`
}

/**
 * Each checked backup copied to the owner's bucket, sealed on this machine first, and the bucket's
 * copies kept to the newest `keep` (only the site's own: other objects there are left alone). A
 * copy runs after each backup, at start (so what failed before a restart is copied then) and
 * after a change of the bucket's settings; one that fails is logged, shown, and tried again,
 * sooner first, never holding anything else up.
 */
export function createBucketCopies({
  dir,
  keep,
  bucket,
  sealKey,
  retryBaseMs,
  log,
  now = Date.now,
}: {
  dir: string
  keep: () => number
  bucket: () => BucketSettings | null
  /** The key copies are sealed with; null until the owner has been shown one. */
  sealKey: () => Buffer | null
  /** The first retry's wait (NOTIFY_RETRY_SECONDS), each next one twice as long. */
  retryBaseMs: number
  log: Log
  now?: () => number
}) {
  let failure: { at: number; words: string; tries: number; nextAt: number } | null = null
  let newest: { name: string; at: number } | null = null
  let running: Promise<void> | null = null
  let again = false
  let stopped = false
  // Ends a copy under way when the site stops: shutdown never waits on the bucket.
  const stopping = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined

  async function copyOnce(settings: BucketSettings, key: Buffer) {
    const store = openBucket(settings, now, stopping.signal)
    const inBucket = new Set((await store.list(bucketPrefix)).map((object) => object.name))
    for (const backup of listBackups(dir).slice(0, keep())) {
      const name = sealedName(backup.name)
      if (inBucket.has(name)) continue
      const { stream, bytes } = sealFile(backup.file, key)
      await store.put(name, stream, bytes)
      inBucket.add(name)
      log.info({ backup: backup.name, bytes }, 'copied a backup to the bucket, sealed')
    }
    const ours = [...inBucket]
      .filter((name) => backupOfSealed(name))
      .sort()
      .reverse()
    const old = ours.slice(keep())
    for (const name of old) await store.remove(name)
    if (old.length > 0)
      log.info({ removed: old.map(backupOfSealed), keep: keep() }, 'removed older copies from the bucket')
    if (ours[0]) newest = { name: backupOfSealed(ours[0])!, at: now() }
  }

  function failed(error: unknown) {
    const tries = (failure?.tries ?? 0) + 1
    const waitMs = Math.min(longestWaitMs, retryBaseMs * 2 ** (tries - 1))
    failure = { at: failure?.at ?? now(), words: wordsOf(error), tries, nextAt: now() + waitMs }
    log.error(
      { problem: failure.words, tries, retryInSeconds: Math.round(waitMs / 1000) },
      'the copy to the bucket failed; the site goes on, and it is tried again',
    )
    clearTimeout(timer)
    if (stopped) return
    timer = setTimeout(() => void copyNow(), waitMs)
    timer.unref()
  }

  /** Copies what the bucket lacks now (or once more after the copy under way). */
  function copyNow(): Promise<void> {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      do {
        again = false
        const settings = bucket()
        const key = sealKey()
        // No bucket, or no key yet (the page offers to make it): nothing to copy, nothing failed.
        if (!settings || !key) {
          failure = null
          continue
        }
        try {
          await copyOnce(settings, key)
          if (failure) log.info({ tries: failure.tries }, 'the bucket took the copies again')
          failure = null
          clearTimeout(timer)
        } catch (error) {
          failed(error)
        }
      } while (again && !stopped)
    })().finally(() => (running = null))
    return running
  }

  return {
    copyNow,
    start() {
      void copyNow()
    },
    state(): OffsiteState {
      return !bucket() ? 'off' : failure || !sealKey() ? 'failing' : 'ok'
    },
    /** What the backups' settings say of the bucket. */
    report() {
      return { on: bucket() !== null, newest, failure: failure && { ...failure } }
    },
    /**
     * 'Test the bucket': a small object written, read back and removed, with the settings given
     * (the form's, unsaved). Null when all of that worked, else the owner's words.
     */
    async test(settings: BucketSettings): Promise<BucketError | null> {
      const store = openBucket(settings, now)
      const name = `${bucketPrefix}test-from-the-farm-site.txt`
      const body = Buffer.from(`A test from the farm's site at ${new Date(now()).toISOString()}.\n`)
      try {
        await store.put(name, body, body.length)
        const back: Buffer[] = []
        let size = 0
        for await (const part of await store.get(name)) {
          back.push(Buffer.from(part))
          // More than was written is wrong already: the rest is not read.
          if ((size += part.length) > body.length) break
        }
        await store.remove(name)
        if (!Buffer.concat(back).equals(body)) return new BucketError('other', 'The bucket gave back other bytes')
        return null
      } catch (error) {
        return error instanceof BucketError ? error : new BucketError('other', wordsOf(error))
      }
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      stopping.abort()
      await running
    },
  }
}

export type BucketCopies = ReturnType<typeof createBucketCopies>
