import { Worker } from 'node:worker_threads'
import type { ReadBack } from './read-back.server'

/** How much of a message the reader reads: the whole of it, its report only, or its headers only. */
export type ReadingOf = 'answer' | 'report' | 'headers'

export interface MailReading {
  job: number
  source: Uint8Array
  of: ReadingOf
}

export type MailReadingAnswer =
  { ready: true } | { job: number; ok: true; read: ReadBack } | { job: number; ok: false; reason: string }

/**
 * How a mail was read: what it is; past a limit (too slow, too big, or it brought the reader
 * down); or not read because the reader was closed meanwhile (the mail is read again later).
 */
export type MailRead = { read: ReadBack } | { pastLimit: string } | { stopped: true }

/** Each mail's reading at most, from when the worker has loaded; a real mail reads in well under a second. */
export const mailReadingLimitMs = 5_000

/**
 * Reads mail in a worker thread, one mail at a time whoever asks, with a time and memory limit:
 * a mail past one ends the worker (a fresh one reads the next). The worker starts with the first
 * mail of a round and ends at `rest` once nothing is being read, so a quiet mailbox keeps none.
 */
export function createMailReader({ workerUrl, limitMs = mailReadingLimitMs }: { workerUrl: URL; limitMs?: number }) {
  let worker: Worker | null = null
  let ready: Promise<void> = Promise.resolve()
  let nextJob = 1
  let inTurn: Promise<unknown> = Promise.resolve()
  let reading = 0
  let restWanted = false
  let closed = false
  /** The job being read: told when its worker ends or fails. */
  let current: { job: number; settle: (outcome: MailRead) => void } | null = null

  function start(): Worker {
    const started = new Worker(workerUrl, {
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
    })
    ready = new Promise((resolve) => {
      const loaded = (answer: MailReadingAnswer) => {
        if (!('ready' in answer)) return
        started.off('message', loaded)
        resolve()
      }
      started.on('message', loaded)
      started.once('exit', () => resolve())
    })
    // For as long as it lives: a worker that fails or stops, reading or not, is never used again.
    started.on('error', (error) => {
      const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
      gone(started, outOfMemory ? 'its reading ran out of memory' : `the reader failed on it: ${error.message}`)
    })
    started.on('exit', (code) => gone(started, `the reader stopped on it (exit ${code})`))
    return started
  }

  function gone(which: Worker, why: string) {
    if (worker !== which) return
    worker = null
    current?.settle({ pastLimit: why })
  }

  function end(): Promise<number> | undefined {
    const ending = worker
    worker = null
    return ending?.terminate()
  }

  async function readOne(source: Buffer, of: ReadingOf): Promise<MailRead> {
    // A fresh copy is handed over whole: the connection's buffer may be part of a larger one.
    const copy = new Uint8Array(source)
    const job = nextJob++
    if (closed) return { stopped: true }
    const reader = (worker ??= start())
    await ready
    if (closed) return { stopped: true }
    if (worker !== reader) return { pastLimit: 'the reader did not start' }
    return new Promise<MailRead>((resolve) => {
      const settle = (outcome: MailRead) => {
        clearTimeout(timer)
        reader.off('message', answered)
        current = null
        resolve(outcome)
      }
      const answered = (answer: MailReadingAnswer) => {
        if ('ready' in answer || answer.job !== job) return
        // A mail the parser refuses is past what the site reads, as one too big is.
        settle(answer.ok ? { read: answer.read } : { pastLimit: answer.reason })
      }
      const timer = setTimeout(() => {
        settle({ pastLimit: `its reading took over ${limitMs / 1000} s` })
        if (worker === reader) void end()
      }, limitMs)
      current = { job, settle }
      reader.on('message', answered)
      reader.postMessage({ job, source: copy, of } satisfies MailReading, [copy.buffer])
    })
  }

  /** One reading at a time, in the order asked. */
  function inOrder(source: Buffer, of: ReadingOf): Promise<MailRead> {
    reading++
    const turn = inTurn.then(() => readOne(source, of))
    inTurn = turn.catch(() => {})
    return turn.finally(() => {
      reading--
      if (reading === 0 && restWanted) {
        restWanted = false
        void end()
      }
    })
  }

  return {
    /** The mail, read whole: an answer to one of the farm's mails. */
    read: (source: Buffer) => inOrder(source, 'answer'),
    /** The mail, read only as the report it may be: anything else is a notice, its text never made. */
    readReport: (source: Buffer) => inOrder(source, 'report'),
    /** A mail past a limit, read from its headers alone (within the same limits). */
    readHeaders: (head: Buffer) => inOrder(head, 'headers'),
    /** The round is over: the worker ends once nothing is being read, and the next mail starts a fresh one. */
    rest: async () => {
      if (reading > 0) restWanted = true
      else await end()
    },
    /** The site stops: a mail being read is not taken (it is read again at the next start). */
    close: async () => {
      closed = true
      current?.settle({ stopped: true })
      await end()
    },
  }
}

export type MailReader = ReturnType<typeof createMailReader>
