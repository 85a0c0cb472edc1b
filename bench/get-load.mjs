// A load generator for `npm run bench`, run in its own process: CONNECTIONS keep-alive
// connections GET URL for SECONDS as a browser asks for a page (brotli or gzip accepted);
// prints one JSON line with the 200s per second, the others, and the latency p50/p99 in ms.
//
//   node bench/get-load.mjs http://127.0.0.1:3000/ 5 10
import { Agent, request } from 'node:http'

const [url, seconds = '5', connections = '10'] = process.argv.slice(2)
const target = new URL(url)
const agent = new Agent({ keepAlive: true, maxSockets: Number(connections) })
const latencies = []
let answered = 0
let failed = 0

function get() {
  const started = performance.now()
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        headers: { Accept: 'text/html', 'Accept-Encoding': 'br, gzip' },
      },
      (res) => {
        res.resume()
        res.on('end', () => {
          if (res.statusCode === 200) answered++
          else failed++
          latencies.push(performance.now() - started)
          resolve()
        })
      },
    )
    req.on('error', () => {
      failed++
      resolve()
    })
    req.end()
  })
}

const ends = Date.now() + Number(seconds) * 1000
await Promise.all(
  Array.from({ length: Number(connections) }, async () => {
    while (Date.now() < ends) await get()
  }),
)
agent.destroy()
latencies.sort((a, b) => a - b)
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0
console.log(JSON.stringify({ rps: answered / Number(seconds), failed, p50: at(0.5), p99: at(0.99) }))
