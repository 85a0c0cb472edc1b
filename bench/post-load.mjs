// A load generator for `npm run bench`, run in its own process: CONNECTIONS keep-alive
// connections post distinct contact forms to URL for SECONDS; prints one JSON line with the
// requests answered 2xx per second, the others, and the latency p50/p99 in ms.
//
//   node bench/post-load.mjs http://127.0.0.1:3000/api/submissions 5 10
import { runLoad } from './load-loop.mjs'

const [url, seconds = '5', connections = '10'] = process.argv.slice(2)
const products = ['eggs', 'honey', 'apples', 'a veg box', 'raw milk', 'strawberries']
let sent = 0

await runLoad({
  url,
  seconds,
  connections,
  next() {
    const n = sent++
    const body = JSON.stringify({
      name: `Visitor ${n}`,
      email: `visitor${n}@example.com`,
      message: `Hello! Could I order ${(n % 5) + 1} of your ${products[n % products.length]} for Saturday? Thanks.`,
    })
    const headers = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }
    return { options: { method: 'POST', headers }, body }
  },
  good: (status) => status >= 200 && status < 300,
  othersAs: 'refused',
})
