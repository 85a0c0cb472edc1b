// A load generator for `npm run bench`, run in its own process: CONNECTIONS keep-alive
// connections post distinct contact forms to URL for SECONDS; prints one JSON line with the
// requests answered 2xx per second, the others, and the latency p50/p99 in ms.
//
//   node bench/post-load.mjs http://127.0.0.1:3000/api/submissions 5 10
import { Agent, request } from 'node:http'

const [url, seconds = '5', connections = '10'] = process.argv.slice(2)
const target = new URL(url)
const agent = new Agent({ keepAlive: true, maxSockets: Number(connections) })
const products = ['eggs', 'honey', 'apples', 'a veg box', 'raw milk', 'strawberries']
const latencies = []
let answered = 0
let refused = 0
let sent = 0

function post() {
  const n = sent++
  const body = JSON.stringify({
    name: `Visitor ${n}`,
    email: `visitor${n}@example.com`,
    message: `Hello! Could I order ${(n % 5) + 1} of your ${products[n % products.length]} for Saturday? Thanks.`,
  })
  const started = performance.now()
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume()
        res.on('end', () => {
          if (res.statusCode >= 200 && res.statusCode < 300) answered++
          else refused++
          latencies.push(performance.now() - started)
          resolve()
        })
      },
    )
    req.on('error', () => {
      refused++
      resolve()
    })
    req.end(body)
  })
}

const ends = Date.now() + Number(seconds) * 1000
await Promise.all(
  Array.from({ length: Number(connections) }, async () => {
    while (Date.now() < ends) await post()
  }),
)
agent.destroy()
latencies.sort((a, b) => a - b)
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0
console.log(JSON.stringify({ rps: answered / Number(seconds), refused, p50: at(0.5), p99: at(0.99) }))
