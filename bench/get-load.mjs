// A load generator for `npm run bench`, run in its own process: CONNECTIONS keep-alive
// connections GET URL for SECONDS as a browser asks for a page (brotli or gzip accepted);
// prints one JSON line with the 200s per second, the others, and the latency p50/p99 in ms.
//
//   node bench/get-load.mjs http://127.0.0.1:3000/ 5 10
import { runLoad } from './load-loop.mjs'

const [url, seconds = '5', connections = '10'] = process.argv.slice(2)
await runLoad({
  url,
  seconds,
  connections,
  next: () => ({ options: { headers: { Accept: 'text/html', 'Accept-Encoding': 'br, gzip' } } }),
  good: (status) => status === 200,
  othersAs: 'failed',
})
