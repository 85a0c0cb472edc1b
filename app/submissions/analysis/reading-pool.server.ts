import { Worker } from 'node:worker_threads'
import type { ContactForm } from '../contact-fields'
import type { Analysis } from './analysis'

export interface ReadingRequest {
  job: number
  form: ContactForm
  /** When the message was sent, in ms, so "Friday" can be placed. */
  at: number
}

export type ReadingAnswer = { job: number; ok: true; analysis: Analysis } | { job: number; ok: false; reason: string }

interface Job {
  id: number
  request: ReadingRequest
  deadline: number
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
 * One worker thread reads messages in turn. Each message has a deadline counted from when
 * it was handed in: a reading past it is abandoned (the worker is ended and a fresh one
 * started), and a message whose deadline passed while it waited is never started.
 */
export function createReadingPool({ workerUrl, workerData, budgetMs, onReplaced }: ReadingPoolOptions) {
  const queue: Job[] = []
  let nextId = 1
  let worker: Worker
  let ready: Promise<void>
  let running: Job | undefined
  let timer: NodeJS.Timeout | undefined
  let closed = false

  function start() {
    worker = new Worker(workerUrl, { workerData })
    // Idle, it must not keep the process alive on its own.
    worker.unref()
    ready = new Promise((resolve) => worker.once('message', () => resolve()))
    worker.on('message', (answer: ReadingAnswer) => {
      if (!running || answer.job !== running.id) return
      const job = running
      finish()
      if (answer.ok) job.resolve(answer.analysis)
      else job.reject(new Error(answer.reason))
    })
    worker.on('error', (error) => replace(`the reader failed: ${error.message}`, error))
    worker.on('exit', (code) => replace(`the reader stopped (exit ${code})`))
  }

  function finish() {
    clearTimeout(timer)
    running = undefined
    if (queue.length === 0) worker.unref()
    next()
  }

  /** Ends the current worker, failing the message it was reading, and starts a fresh one. */
  function replace(reason: string, error: Error = new ReadingTimedOut(reason)) {
    if (closed) return
    const job = running
    clearTimeout(timer)
    running = undefined
    worker.removeAllListeners()
    void worker.terminate()
    onReplaced?.(reason)
    start()
    job?.reject(error)
    next()
  }

  function next() {
    if (running || closed) return
    let job = queue.shift()
    // What waited past its deadline is answered at once; reading it would only delay the rest.
    while (job && job.deadline <= Date.now()) {
      job.reject(new ReadingTimedOut(`waited past the ${budgetMs} ms budget`))
      job = queue.shift()
    }
    if (!job) return
    running = job
    worker.ref()
    timer = setTimeout(() => replace(`no reading within the ${budgetMs} ms budget`), job.deadline - Date.now())
    const reader = worker
    void ready.then(() => {
      if (running === job && worker === reader) reader.postMessage(job.request)
    })
  }

  start()

  return {
    read(form: ContactForm, at: Date): Promise<Analysis> {
      if (closed) return Promise.reject(new Error('the reading pool is closed'))
      return new Promise((resolve, reject) => {
        const id = nextId++
        queue.push({
          id,
          request: { job: id, form, at: at.getTime() },
          deadline: Date.now() + budgetMs,
          resolve,
          reject,
        })
        next()
      })
    },

    async close() {
      closed = true
      clearTimeout(timer)
      worker.removeAllListeners()
      for (const job of queue.splice(0)) job.reject(new Error('the reading pool is closed'))
      running?.reject(new Error('the reading pool is closed'))
      running = undefined
      await worker.terminate()
    },
  }
}

export type ReadingPool = ReturnType<typeof createReadingPool>
