import { spawn } from 'node:child_process'
import { createReadStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { Log } from '#app/log'
import { listBackups, removePartials } from './backup-files.server'

export type CopyJob =
  | { kind: 'backup'; databasePath: string; dir: string; keep: number; at: number }
  | { kind: 'download'; databasePath: string; dir: string }

export type CopyResult =
  | { ok: true; kind: 'backup'; file: string; bytes: number; submissions: number; removed: string[] }
  | { ok: true; kind: 'download'; file: string; bytes: number }
  | { ok: false; error: string; code: string | null }

/** Runs one copy job away from the server's process, answering with its result. */
export type RunCopy = (job: CopyJob) => Promise<CopyResult>

/** A process per copy (`build/backup-copier.js`): backups are rare, and one gone between them leaves the site's memory as it was. */
export function copyInProcess(copierUrl: URL): RunCopy {
  return (job) =>
    new Promise((resolve) => {
      const copier = spawn(process.execPath, [fileURLToPath(copierUrl), JSON.stringify(job)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let said = ''
      let complained = ''
      // Read as text, so a character split between two chunks (a path in another script) stays whole.
      copier.stdout.setEncoding('utf8').on('data', (chunk: string) => (said += chunk))
      copier.stderr.setEncoding('utf8').on('data', (chunk: string) => (complained += chunk))
      copier.once('error', (error) => resolve({ ok: false, error: error.message, code: null }))
      copier.once('close', (code) => {
        try {
          resolve(JSON.parse(said) as CopyResult)
        } catch {
          resolve({
            ok: false,
            error: `the backup copier stopped (exit ${code}): ${complained.slice(0, 500)}`,
            code: null,
          })
        }
      })
    })
}

const minuteMs = 60_000
/** A failed backup is tried again this soon, or at the next one if that comes sooner. */
const retryMs = 15 * minuteMs

/**
 * The database's backups: one every `everyMs` (and at start when the newest is older than
 * that, or there is none), each checked before it is named, the newest `keep` kept; a failed
 * one is logged and tried again, never fatal. And fresh copies for the owner to download.
 */
export function createBackups({
  databasePath,
  dir,
  keep,
  everyMs,
  runCopy,
  afterEach = () => {},
  log,
  now = Date.now,
}: {
  databasePath: string
  dir: string
  /** BACKUP_KEEP now. */
  keep: () => number
  /** BACKUP_EVERY_MINUTES now, in ms. */
  everyMs: () => number
  runCopy: RunCopy
  /** Told after each backup is named (the bucket's copy starts then). */
  afterEach?: () => void
  log: Log
  now?: () => number
}) {
  let running: Promise<CopyResult> | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  let downloading = false

  /** Takes a backup now (or joins the one being taken); logs how it went. */
  function takeNow(): Promise<CopyResult> {
    running ??= (async () => {
      const started = now()
      const result = await runCopy({ kind: 'backup', databasePath, dir, keep: keep(), at: started })
      if (result.ok && result.kind === 'backup') {
        log.info(
          { file: result.file, submissions: result.submissions, bytes: result.bytes, ms: now() - started },
          'backed up the database',
        )
        if (result.removed.length > 0)
          log.info({ removed: result.removed, keep: keep() }, 'removed backups older than the newest kept')
        afterEach()
      } else if (!result.ok) {
        log.error(
          { dir, problem: result.error, code: result.code, retryInMinutes: Math.min(everyMs(), retryMs) / minuteMs },
          'the backup failed; the site goes on, and it is tried again',
        )
      }
      return result
    })().finally(() => (running = null))
    return running
  }

  function schedule(inMs: number) {
    clearTimeout(timer)
    if (stopped) return
    timer = setTimeout(() => {
      void takeNow().then((result) => schedule(result.ok ? everyMs() : Math.min(everyMs(), retryMs)))
    }, inMs)
    timer.unref()
  }

  /** The next backup: due at once when the newest is older than `everyMs`, or missing. */
  function scheduleFromNewest() {
    const newest = listBackups(dir)[0]
    schedule(newest ? Math.max(0, newest.takenAt + everyMs() - now()) : 0)
  }

  return {
    takeNow,

    /** Starts the schedule. */
    start() {
      removePartials(dir)
      scheduleFromNewest()
    },

    /** After a change of settings: the next backup counted from the newest with the new interval. */
    rescheduled: scheduleFromNewest,

    /**
     * A fresh consistent copy as a stream; the file it was written to is removed as soon as it
     * is open, so nothing is left behind however the download ends.
     */
    async download(): Promise<
      { ok: true; body: ReadableStream<Uint8Array>; bytes: number } | { ok: false; busy: boolean }
    > {
      // Each download is a whole copy on the disk while it streams: one at a time.
      if (downloading) return { ok: false, busy: true }
      downloading = true
      const copy = await runCopy({ kind: 'download', databasePath, dir })
      if (!copy.ok) {
        downloading = false
        log.error({ problem: copy.error, code: copy.code }, 'could not copy the database for a download')
        return { ok: false, busy: false }
      }
      const stream = createReadStream(copy.file)
      stream.once('open', () => void rm(copy.file, { force: true }))
      stream.once('error', () => void rm(copy.file, { force: true }))
      // Read to its end, the copy is all on its way: the next may start (a client that has the
      // whole file must never be told one is still downloading); a download cut short closes.
      stream.once('end', () => (downloading = false))
      stream.once('close', () => (downloading = false))
      return { ok: true, body: Readable.toWeb(stream) as ReadableStream<Uint8Array>, bytes: copy.bytes }
    },

    /** Stops the schedule; a backup under way finishes in its own process. */
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

export type Backups = ReturnType<typeof createBackups>
