// The offline reader in a worker thread, so a message that takes long to read holds up
// this thread, which the server can end, and never the server's own.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { parentPort, workerData } from 'node:worker_threads'
import { createOfflineReader } from './offline.server'
import type { Product } from './products'
import type { ReadingAnswer, ReadingRequest } from './reading-pool.server'

let readOffline = createOfflineReader((workerData as { products: Product[] }).products)

function answer({ job, form, at, hours, deadline }: ReadingRequest): ReadingAnswer {
  // Messages queue here while one is read; one whose time ran out meanwhile is not started.
  if (Date.now() >= deadline) return { job, ok: false, late: true }
  try {
    return { job, ok: true, analysis: readOffline(form, new Date(at), hours) }
  } catch (error) {
    return { job, ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
}

// The owner changed the products: the messages after this one are read for the new list.
type NewProducts = { products: Product[] }
parentPort?.on('message', (request: ReadingRequest | NewProducts) => {
  if ('products' in request) readOffline = createOfflineReader(request.products)
  else parentPort?.postMessage(answer(request))
})
// The date parser builds its patterns on first use (a few hundred ms): one order read before the
// worker says it is ready, so no visitor's message pays for that within its deadline.
readOffline(
  { name: 'Warm', email: 'warm@example.com', message: 'Two dozen eggs for Saturday morning, please' },
  new Date(),
)
collectLoadingGarbage()
parentPort?.postMessage({ ready: true })

/**
 * Loading the language model and the warm-up leave some 15 MB the worker no longer uses, which
 * a quiet farm's few readings a day would not collect for hours: collected once, here, so the
 * waiting worker holds only what it reads with. V8 lends its collector only to a new context.
 */
function collectLoadingGarbage() {
  setFlagsFromString('--expose-gc')
  const collect = runInNewContext('gc') as () => void
  setFlagsFromString('--no-expose-gc')
  collect()
}
