// Times the offline analysis per message over the labelled farm messages and
// compares it with plain lower-casing and splitting of the same messages, run
// the same way in the same process. Not a test: the figures depend on the machine.
import { labelledMessages, laterMessages, sentAt, unseenMessages } from '#app/analysis/fixtures/messages'
import { createOfflineReader } from '#app/analysis/offline.server'
import { defaultFarmProducts, readProductList } from '#app/analysis/products'

const messages = [...labelledMessages, ...laterMessages, ...unseenMessages]
const warmUpRounds = 20
const rounds = 100

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0
}

/** Milliseconds per message, every message timed on its own in every round. */
function time(label: string, analyse: (message: (typeof messages)[number]) => unknown) {
  let sink = 0
  for (let round = 0; round < warmUpRounds; round++) for (const message of messages) sink ^= Number(!!analyse(message))
  const times: number[] = []
  for (let round = 0; round < rounds; round++) {
    for (const message of messages) {
      const started = process.hrtime.bigint()
      sink ^= Number(!!analyse(message))
      times.push(Number(process.hrtime.bigint() - started) / 1e6)
    }
  }
  times.sort((a, b) => a - b)
  return { label, median: percentile(times, 0.5), p99: percentile(times, 0.99), samples: times.length, sink }
}

const loaded = performance.now()
const readOffline = createOfflineReader(readProductList(defaultFarmProducts))
const setUpMs = performance.now() - loaded

const baseline = time('lowercase + split', ({ message }) => message.toLowerCase().split(/\s+/))
const offline = time('offline analysis', (message) => readOffline(message, sentAt))

const ms = (value: number) => `${value.toFixed(4)} ms`
console.log(
  `${messages.length} messages, ${rounds} rounds after ${warmUpRounds} to warm up; reader set up in ${setUpMs.toFixed(0)} ms`,
)
for (const { label, median, p99, samples } of [baseline, offline]) {
  console.log(`${label.padEnd(18)} median ${ms(median)}  p99 ${ms(p99)}  (${samples} samples)`)
}
console.log(
  `offline / baseline: median ×${(offline.median / baseline.median).toFixed(0)}, p99 ×${(offline.p99 / baseline.p99).toFixed(0)}`,
)
console.log(`target: median under 5 ms — ${offline.median < 5 ? 'met' : 'NOT met'}`)
