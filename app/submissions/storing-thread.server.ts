import { Worker } from 'node:worker_threads'
import type { NewSubmission, Stored, WriteSubmissions } from './submission-store.server'

export interface StoringData {
  databasePath: string
  /** Each kept submission gets its row in the owner's outbox in the same transaction. */
  mailsOwner: boolean
}

export interface StoreRequest {
  batch: number
  submissions: NewSubmission[]
}

export interface StoreAnswer {
  batch: number
  results: Stored[]
}

export interface StoringThreadOptions {
  /** The worker's entry module (JavaScript); it answers each StoreRequest with a StoreAnswer. */
  workerUrl: URL
  workerData: StoringData
  onStopped?(reason: string): void
}

/**
 * A worker thread with its own connection stores the batches it is handed, so the server's
 * thread never waits for a commit's fsync. Should the thread stop, the batches it held fail
 * (they may or may not have committed: the visitor is told to try again, never told a lie)
 * and the next batch starts a fresh thread.
 */
export function createStoringThread({ workerUrl, workerData, onStopped }: StoringThreadOptions) {
  const unanswered = new Map<number, { resolve(results: Stored[]): void; reject(error: Error): void }>()
  let worker: Worker | null = null
  let nextBatch = 1
  let closed = false

  function failUnanswered(reason: string) {
    for (const { reject } of unanswered.values()) reject(new Error(reason))
    unanswered.clear()
  }

  function running(): Worker {
    if (worker) return worker
    const thread = new Worker(workerUrl, { workerData, resourceLimits: { maxYoungGenerationSizeMb: 4 } })
    thread.on('message', ({ batch, results }: StoreAnswer) => {
      unanswered.get(batch)?.resolve(results)
      unanswered.delete(batch)
      // An idle thread keeps nothing alive.
      if (unanswered.size === 0) thread.unref()
    })
    const stopped = (reason: string) => {
      if (worker !== thread) return
      worker = null
      thread.removeAllListeners()
      void thread.terminate()
      onStopped?.(reason)
      failUnanswered(`the storing thread stopped: ${reason}`)
    }
    thread.on('error', (error) => stopped(error.message))
    thread.on('exit', (code) => stopped(`exit ${code}`))
    thread.unref()
    worker = thread
    return thread
  }

  // Started now, so the first submission does not wait for it to load.
  running()

  const write: WriteSubmissions = (submissions) => {
    if (closed) return Promise.reject(new Error('the storing thread is closed'))
    return new Promise((resolve, reject) => {
      const batch = nextBatch++
      unanswered.set(batch, { resolve, reject })
      const thread = running()
      thread.ref()
      thread.postMessage({ batch, submissions } satisfies StoreRequest)
    })
  }

  return {
    write,
    async close() {
      closed = true
      const thread = worker
      worker = null
      failUnanswered('the storing thread is closed')
      thread?.removeAllListeners()
      await thread?.terminate()
    },
  }
}

export type StoringThread = ReturnType<typeof createStoringThread>
