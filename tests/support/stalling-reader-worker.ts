// A stand-in for the offline reader worker: answers at once, except that a message reading
// "stall" keeps the thread busy forever, like a message the real reader chokes on.
import { parentPort } from 'node:worker_threads'
import type { ReadingRequest } from '#app/analysis/reading-pool.server'
import { honeyQuestion } from '#tests/fixtures/honey-question'

parentPort?.on('message', ({ job, form }: ReadingRequest) => {
  if (form.message === 'stall') for (;;);
  if (form.message === 'fail') return parentPort?.postMessage({ job, ok: false, reason: 'could not read' })
  parentPort?.postMessage({ job, ok: true, analysis: { ...honeyQuestion, products: [form.message] } })
})
parentPort?.postMessage({ ready: true })
