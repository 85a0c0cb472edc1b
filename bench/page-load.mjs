// A load generator for `npm run bench`, run in its own process: CONNECTIONS loops fetch URL
// for SECONDS as a browser asks for a page (brotli or gzip); prints one JSON line with the
// pages served per second and the answers that were not 200.
//
//   node bench/page-load.mjs http://127.0.0.1:3000/farm-sales 5 10
const [url, seconds = '5', connections = '10'] = process.argv.slice(2)
const until = performance.now() + Number(seconds) * 1000
let served = 0
let failed = 0
await Promise.all(
  Array.from({ length: Number(connections) }, async () => {
    while (performance.now() < until) {
      const response = await fetch(url, { headers: { 'Accept-Encoding': 'br, gzip', Accept: 'text/html' } })
      await response.arrayBuffer()
      if (response.status === 200) served++
      else failed++
    }
  }),
)
console.log(JSON.stringify({ pagesPerSecond: served / Number(seconds), failed }))
