import type { Log } from '#app/log'
import { createAnalyser, type Analyse } from './analyser.server'
import { createLlmReader, type LlmSettings } from './llm.server'
import type { FarmHours } from './order-reading'
import type { Product } from './products'
import { createReadingPool } from './reading-pool.server'

/**
 * The language engine as the site runs it: the offline reader in its worker, with its deadline,
 * and the language model first when AI_API_URL is set. `stop()` ends the worker.
 */
export function startAnalysis({
  workerUrl,
  products,
  budgetMs,
  llm,
  timeZone,
  openingHours,
  log,
}: {
  workerUrl: URL
  products: Product[]
  budgetMs: number
  llm: LlmSettings | null
  /** The farm's clock now: the days a message names are on its calendar. */
  timeZone: () => string
  /** The farm's published opening hours, when it has any: what "Saturday morning" means at the farm. */
  openingHours: () => FarmHours | null
  log: Log
}) {
  const reader = createReadingPool({
    workerUrl,
    workerData: { products },
    budgetMs,
    onReplaced: (reason) => log.warn({ reason }, 'started a fresh message reader'),
  })
  const analyserFor = (looksFor: Product[]) =>
    createAnalyser({
      readOffline: reader.read,
      readWithLlm: llm
        ? createLlmReader(
            llm,
            looksFor.map((product) => product.name),
          )
        : undefined,
      log,
      timeZone,
      openingHours,
    })
  let analyser = analyserFor(products)
  return {
    analyse: ((form) => analyser(form)) satisfies Analyse,
    /** The owner changed the products: the next message is read for these. */
    lookFor(next: Product[]) {
      reader.tell({ products: next })
      analyser = analyserFor(next)
    },
    /** For /healthz: 'starting' until the offline reader has loaded (a message sent meanwhile may be read again later). */
    reader: () => (reader.ready ? ('ready' as const) : ('starting' as const)),
    stop: () => void reader.close(),
  }
}
