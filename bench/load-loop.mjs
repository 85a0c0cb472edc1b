// The loop both load generators run (get-load.mjs, post-load.mjs): CONNECTIONS keep-alive
// connections each send the next request as soon as the last is answered, for SECONDS; then one
// JSON line with the good answers per second, the others, and the latency p50/p99 in ms.
import { Agent, request } from 'node:http'

/** `next()` gives each request's options and body; `good(status)` says which answers count. */
export async function runLoad({ url, seconds, connections, next, good, othersAs }) {
  const target = new URL(url)
  const agent = new Agent({ keepAlive: true, maxSockets: Number(connections) })
  const latencies = []
  let answered = 0
  let others = 0
  const send = () => {
    const { options, body } = next()
    const started = performance.now()
    return new Promise((resolve) => {
      const req = request(
        { agent, host: target.hostname, port: target.port, path: target.pathname + target.search, ...options },
        (res) => {
          res.resume()
          res.on('end', () => {
            if (good(res.statusCode)) answered++
            else others++
            latencies.push(performance.now() - started)
            resolve()
          })
        },
      )
      req.on('error', () => {
        others++
        resolve()
      })
      req.end(body)
    })
  }
  const ends = Date.now() + Number(seconds) * 1000
  await Promise.all(
    Array.from({ length: Number(connections) }, async () => {
      while (Date.now() < ends) await send()
    }),
  )
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0
  console.log(JSON.stringify({ rps: answered / Number(seconds), [othersAs]: others, p50: at(0.5), p99: at(0.99) }))
}
