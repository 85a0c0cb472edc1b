import { createReadStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { Worker } from 'node:worker_threads'
import type { Log } from '#app/log'
import { listBackups, removePartials } from './backup-files.server'

export type CopyJob =
  | { kind: 'backup'; databasePath: string; dir: string; keep: number; at: number }
  | { kind: 'download'; databasePath: string; dir: string }

export type CopyResult =
  | { ok: true; kind: 'backup'; file: string; bytes: number; submissions: number; removed: string[] }
  | { ok: true; kind: 'download'; file: string; bytes: number }
  | { ok: false; error: string; code: string | null }

/** Runs one copy job away from the server's thread (a worker), answering with its result. */
export type RunCopy = (job: CopyJob) => Promise<CopyResult>

/** A worker per copy: backups are rare, and a worker gone between them costs no memory. */
export function copyInWorker(workerUrl: URL): RunCopy {
  return (job) =>
    new Promise((resolve) => {
      const worker = new Worker(workerUrl)
      let answered = false
      worker.once('message', (result: CopyResult) => {
        answered = true
        resolve(result)
        void worker.terminate()
      })
      worker.once('error', (error) => {
        answered = true
        resolve({ ok: false, error: error.message, code: null })
      })
      worker.once('exit', (code) => {
        if (!answered) resolve({ ok: false, error: `the backup worker stopped (exit ${code})`, code: null })
      })
      worker.postMessage(job)
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
  log,
  now = Date.now,
}: {
  databasePath: string
  dir: string
  keep: number
  everyMs: number
  runCopy: RunCopy
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
      const result = await runCopy({ kind: 'backup', databasePath, dir, keep, at: started })
      if (result.ok && result.kind === 'backup') {
        log.info(
          { file: result.file, submissions: result.submissions, bytes: result.bytes, ms: now() - started },
          'backed up the database',
        )
        if (result.removed.length > 0)
          log.info({ removed: result.removed, keep }, 'removed backups older than the newest kept')
      } else if (!result.ok) {
        log.error(
          { dir, problem: result.error, code: result.code, retryInMinutes: Math.min(everyMs, retryMs) / minuteMs },
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
      void takeNow().then((result) => schedule(result.ok ? everyMs : Math.min(everyMs, retryMs)))
    }, inMs)
    timer.unref()
  }

  return {
    takeNow,

    /** Starts the schedule: due at once when the newest backup is older than `everyMs`, or missing. */
    start() {
      removePartials(dir)
      const newest = listBackups(dir)[0]
      schedule(newest ? Math.max(0, newest.takenAt + everyMs - now()) : 0)
    },

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
      stream.once('close', () => (downloading = false))
      return { ok: true, body: Readable.toWeb(stream) as ReadableStream<Uint8Array>, bytes: copy.bytes }
    },

    /** Stops the schedule; a backup under way finishes in its worker. */
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

export type Backups = ReturnType<typeof createBackups>
