import { Worker } from 'node:worker_threads'
import type { Analysis, Enquiry } from './analysis'
import type { FarmHours } from './order-reading'

export interface ReadingRequest {
  job: number
  form: Enquiry
  /** When the message was sent, in ms, so "Friday" can be placed. */
  at: number
  /** The farm's opening hours when known: "Saturday morning" is within them. */
  hours: FarmHours | null
  /** Past this time (ms since the epoch) the reader answers `late` instead of starting. */
  deadline: number
}

export type ReadingAnswer =
  | { job: number; ok: true; analysis: Analysis }
  | { job: number; ok: false; reason: string }
  | { job: number; ok: false; late: true }

interface Job {
  request: ReadingRequest
  resolve(analysis: Analysis): void
  reject(error: Error): void
}

export class ReadingTimedOut extends Error {}

export interface ReadingPoolOptions {
  /** The worker's entry module (JavaScript); it answers each ReadingRequest with a ReadingAnswer. */
  workerUrl: URL
  workerData: unknown
  /** From the moment a message is handed in, how long its reading may take. */
  budgetMs: number
  onReplaced?(reason: string): void
}

/**
 * One worker thread reads messages in turn. Every message is handed to it as it arrives, so
 * the worker never waits for this thread between two readings; it answers in order. Each
 * message has a deadline counted from when it was handed in: a reading past it is abandoned
 * (the worker is ended, a fresh one started and handed what was still unread), and a message
 * whose deadline passed while it waited is never started.
 */
export function createReadingPool({ workerUrl, workerData, budgetMs, onReplaced }: ReadingPoolOptions) {
  // Handed to the current worker and not yet answered, oldest (the one being read) first.
  const unanswered: Job[] = []
  let nextId = 1
  let worker: Worker
  let timer: NodeJS.Timeout | undefined
  let closed = false
  // Until the worker has loaded its model, a message handed in waits for it within its deadline.
  let ready = false

  const waitedTooLong = () => new ReadingTimedOut(`waited past the ${budgetMs} ms budget`)

  function start() {
    // Readings allocate little and briefly; a small young generation keeps the idle
    // worker's memory down (about 5 MB of the server's RSS) at no measurable cost per reading.
    ready = false
    worker = new Worker(workerUrl, { workerData, resourceLimits: { maxYoungGenerationSizeMb: 4 } })
    worker.on('message', (answer: ReadingAnswer | { ready: true }) => {
      if (!('job' in answer)) return void (ready = true)
      if (unanswered[0]?.request.job !== answer.job) return
      const job = unanswered.shift()!
      watchOldest()
      // An answer that comes after the deadline, before the watchdog's timer has run, is late all the same.
      if (answer.ok && Date.now() > job.request.deadline) job.reject(waitedTooLong())
      else if (answer.ok) job.resolve(answer.analysis)
      else if ('late' in answer) job.reject(waitedTooLong())
      else job.reject(new Error(answer.reason))
    })
    worker.on('error', (error) => replace(`the reader failed: ${error.message}`, error))
    worker.on('exit', (code) => replace(`the reader stopped (exit ${code})`))
    watchOldest()
  }

  /** The watchdog follows the oldest unanswered message; with none, an idle worker keeps nothing alive. */
  function watchOldest() {
    clearTimeout(timer)
    const oldest = unanswered[0]
    if (!oldest) return worker.unref()
    worker.ref()
    timer = setTimeout(
      () => replace(`no reading within the ${budgetMs} ms budget`),
      Math.max(0, oldest.request.deadline - Date.now()),
    )
  }

  /** Ends the current worker, failing the message it was reading, and starts a fresh one with the rest. */
  function replace(reason: string, error: Error = new ReadingTimedOut(reason)) {
    if (closed) return
    clearTimeout(timer)
    const reading = unanswered.shift()
    const rest = unanswered.splice(0)
    worker.removeAllListeners()
    void worker.terminate()
    onReplaced?.(reason)
    start()
    reading?.reject(error)
    for (const job of rest) hand(job)
  }

  function hand(job: Job) {
    // What waited past its deadline is answered at once; reading it would only delay the rest.
    if (job.request.deadline <= Date.now()) return job.reject(waitedTooLong())
    unanswered.push(job)
    worker.postMessage(job.request)
    if (unanswered.length === 1) watchOldest()
  }

  start()

  return {
    /** Whether the reader has loaded and answers at once: false while it starts, and again after a replacement. */
    get ready() {
      return ready
    },
    read(form: Enquiry, at: Date, hours: FarmHours | null = null): Promise<Analysis> {
      if (closed) return Promise.reject(new Error('the reading pool is closed'))
      return new Promise((resolve, reject) => {
        const job = nextId++
        const request = { job, form, at: at.getTime(), hours, deadline: Date.now() + budgetMs }
        hand({ request, resolve, reject })
      })
    },

    /** What the next worker starts with, and the current one reads with from its next message. */
    tell(data: { products: unknown }) {
      workerData = data
      worker.postMessage(data)
    },

    async close() {
      closed = true
      clearTimeout(timer)
      worker.removeAllListeners()
      for (const job of unanswered.splice(0)) job.reject(new Error('the reading pool is closed'))
      await worker.terminate()
    },
  }
}

export type ReadingPool = ReturnType<typeof createReadingPool>
