// Live watchers for `npm run bench`, run in their own process: opens COUNT WebSockets to
// URL and prints {"open": n} once all are open (or refused). Then it reads lines
// {"id", "at", "sent"} from stdin (when the POST of each submission was sent and acknowledged,
// in ms since the epoch) and once stdin closes prints how many deliveries arrived and their
// latency from acknowledgement to receipt, p50 and p99; and from the POST's sending, split at the
// first watcher's receipt of each.
//
//   node bench/watchers.mjs ws://127.0.0.1:3000/ 1000
import { createInterface } from 'node:readline'
import { WebSocket } from 'ws'

const [url, count = '1000'] = process.argv.slice(2)
const received = new Map()
const now = () => performance.timeOrigin + performance.now()
const sockets = []
let refused = 0
// The size of one frame, so the bench can show the peer's frames are as large as the product's.
let frameBytes = null

async function open() {
  const socket = new WebSocket(url)
  socket.on('message', (raw) => {
    const at = now()
    frameBytes ??= raw.length
    const id = JSON.parse(raw.toString()).data?.id
    if (!received.has(id)) received.set(id, [])
    received.get(id).push(at)
  })
  await new Promise((resolve) => {
    socket.once('open', resolve)
    socket.once('unexpected-response', () => {
      refused++
      resolve()
    })
    socket.once('error', () => {
      refused++
      resolve()
    })
  })
  sockets.push(socket)
}

for (let i = 0; i < Number(count); i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, Number(count) - i) }, open))
}
console.log(JSON.stringify({ open: Number(count) - refused, refused }))
const acknowledged = new Map()
createInterface({ input: process.stdin })
  .on('line', (line) => {
    const { id, at, sent } = JSON.parse(line)
    acknowledged.set(id, { at, sent })
  })
  .on('close', () => {
    // Where the time goes: from the POST's sending to the first watcher's frame (the reading,
    // the commit and building the frame), and from the first watcher's frame to each other's
    // (the send loop, and this process reading 1,000 sockets).
    const latencies = []
    const fromSent = []
    const toFirst = []
    const afterFirst = []
    for (const [id, times] of received) {
      const posted = acknowledged.get(id)
      if (posted === undefined) continue
      const first = Math.min(...times)
      toFirst.push(first - posted.sent)
      for (const time of times) {
        latencies.push(Math.max(0, time - posted.at))
        fromSent.push(time - posted.sent)
        afterFirst.push(time - first)
      }
    }
    const quantile = (values, q) => {
      const sorted = [...values].sort((a, b) => a - b)
      return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? null
    }
    for (const socket of sockets) socket.terminate()
    const summary = {
      delivered: latencies.length,
      frameBytes,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      fromSentP50: quantile(fromSent, 0.5),
      fromSentP99: quantile(fromSent, 0.99),
      toFirstP50: quantile(toFirst, 0.5),
      toFirstP99: quantile(toFirst, 0.99),
      afterFirstP50: quantile(afterFirst, 0.5),
      afterFirstP99: quantile(afterFirst, 0.99),
    }
    process.stdout.write(`${JSON.stringify(summary)}\n`, () => process.exit(0))
  })
