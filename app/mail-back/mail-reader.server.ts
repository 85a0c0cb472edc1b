import { Worker } from 'node:worker_threads'
import type { ReadBack } from './read-back.server'

export interface MailReading {
  job: number
  source: Uint8Array
  /** Read its headers alone: its body is past a limit. */
  headersOnly: boolean
}

export type MailReadingAnswer = { job: number; ok: true; read: ReadBack } | { job: number; ok: false; reason: string }

/** How a mail was read: what it is, or past a limit (too slow or too big to read), or not readable at all. */
export type MailRead = { read: ReadBack } | { pastLimit: string } | { unreadable: string }

/** Each mail's reading at most; a mail read back is about 1 MB at most and reads in well under a second. */
export const mailReadingLimitMs = 5_000

/**
 * Reads mail in a worker thread, one at a time, with a time and memory limit: a mail past one
 * ends the worker (a fresh one reads the next). The worker starts with the first mail of a
 * round and ends with `rest`, so a site whose mailbox is quiet keeps no worker's memory.
 */
export function createMailReader({ workerUrl, limitMs = mailReadingLimitMs }: { workerUrl: URL; limitMs?: number }) {
  let worker: Worker | null = null
  let nextJob = 1

  function end() {
    const ending = worker
    worker = null
    ending?.removeAllListeners()
    return ending?.terminate()
  }

  function read(source: Buffer, headersOnly: boolean): Promise<MailRead> {
    // A fresh copy is handed over whole: the connection's buffer may be part of a larger one.
    const copy = new Uint8Array(source)
    const job = nextJob++
    const reader = (worker ??= new Worker(workerUrl, {
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
    }))
    return new Promise<MailRead>((resolve) => {
      const done = (outcome: MailRead, endWorker: boolean) => {
        clearTimeout(timer)
        reader.off('message', answered)
        reader.off('error', failed)
        reader.off('exit', stopped)
        if (endWorker && worker === reader) void end()
        resolve(outcome)
      }
      const answered = (answer: MailReadingAnswer) => {
        if (answer.job !== job) return
        done(answer.ok ? { read: answer.read } : { unreadable: answer.reason }, false)
      }
      const failed = (error: Error) =>
        done(
          (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? { pastLimit: 'its reading ran out of memory' }
            : { unreadable: error.message },
          true,
        )
      const stopped = (code: number) => done({ unreadable: `the mail reader stopped (exit ${code})` }, true)
      const timer = setTimeout(() => done({ pastLimit: `its reading took over ${limitMs / 1000} s` }, true), limitMs)
      reader.on('message', answered)
      reader.on('error', failed)
      reader.on('exit', stopped)
      reader.postMessage({ job, source: copy, headersOnly } satisfies MailReading, [copy.buffer])
    })
  }

  return {
    /** The mail, read in the worker within the limits. */
    read: (source: Buffer) => read(source, false),
    /** A mail past a limit, read from its headers alone (within the same limits). */
    readHeaders: (head: Buffer) => read(head, true),
    /** The round is over: the worker ends, and the next mail starts a fresh one. */
    rest: async () => {
      await end()
    },
  }
}

export type MailReader = ReturnType<typeof createMailReader>
