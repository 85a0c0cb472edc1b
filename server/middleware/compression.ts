import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { constants } from 'node:zlib'
import compression from 'compression'
import express, { type RequestHandler } from 'express'

const encodings = [
  { name: 'br', extension: '.br' },
  { name: 'gzip', extension: '.gz' },
] as const

/**
 * Serves the copies `npm run build` compressed ahead of time (scripts/compress-assets.js):
 * the brotli or gzip file the browser accepts, with the original's type and
 * `Vary: Accept-Encoding`, so a bundle costs no CPU per request. The files are listed once
 * at start, so a request path is only ever compared with that list, never looked up on disk.
 */
export function precompressedAssets(folder: string): RequestHandler {
  const copies = new Set(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${relative(folder, join(entry.parentPath, entry.name))}`),
  )
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const path = req.path
    if (!encodings.some(({ extension }) => copies.has(path + extension))) return next()
    res.vary('Accept-Encoding')
    const accepted = req.acceptsEncodings(encodings.map(({ name }) => name))
    const encoding = encodings.find(({ name, extension }) => name === accepted && copies.has(path + extension))
    if (!encoding) return next()
    // As express.static would type the original file.
    const type = express.static.mime.lookup(path)
    const charset = express.static.mime.charsets.lookup(type, '')
    res.setHeader('Content-Type', charset ? `${type}; charset=${charset}` : type)
    res.setHeader('Content-Encoding', encoding.name)
    req.url = path + encoding.extension
    next()
  }
}

/**
 * Remix's bundles under /build: the compressed copies (in production), the files themselves,
 * cached for good (Remix fingerprints them), and a plain 404 for anything else. A bundle missing
 * or replaced since the start (a rebuild) never falls through to the pages, whose own
 * Content-Type would meet the one set for the copy and answer 500.
 */
export function bundleFiles(folder: string, { precompressed }: { precompressed: boolean }) {
  const router = express.Router()
  if (precompressed) router.use(precompressedAssets(folder))
  router.use(express.static(folder, { immutable: true, maxAge: '1y' }))
  router.use((req, res, next) => {
    // Another method is the pages' to refuse (405), as anywhere else.
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    res.removeHeader('Content-Encoding')
    res.removeHeader('Content-Type')
    res.status(404).type('text/plain').send('No such file.')
  })
  return router
}

/**
 * Pages, JSON and the CSV export compressed as they are written. Remix flushes after each
 * chunk it streams, and the compressor passes every flush on, so a streamed page still
 * arrives in pieces. Responses already encoded (the assets above) are left alone. Brotli at
 * quality 5 rather than the package's 4: a full inbox page is 7% smaller (12.1 against 13.0 KB,
 * inside TCP's first window of about 14 KB) for 0.2 ms more per page.
 */
export function compressResponses(): RequestHandler {
  return compression({ brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } } })
}
