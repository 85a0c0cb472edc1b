// The offline reader in a worker thread, so a message that takes long to read holds up
// this thread, which the server can end, and never the server's own.
import { parentPort, workerData } from 'node:worker_threads'
import { createOfflineReader } from './offline.server'
import type { Product } from './products'
import type { ReadingAnswer, ReadingRequest } from './reading-pool.server'

const readOffline = createOfflineReader((workerData as { products: Product[] }).products)

parentPort?.on('message', ({ job, form, at }: ReadingRequest) => {
  let answer: ReadingAnswer
  try {
    answer = { job, ok: true, analysis: readOffline(form, new Date(at)) }
  } catch (error) {
    answer = { job, ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
  parentPort?.postMessage(answer)
})
parentPort?.postMessage({ ready: true })
