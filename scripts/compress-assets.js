// Writes a brotli (.br) and a gzip (.gz) copy beside every script and stylesheet under
// public/build, at the highest levels, once per build; the server sends whichever the
// browser accepts (server/middleware/compression.ts) and compresses nothing at request time.
//
//   node scripts/compress-assets.js      (part of `npm run build`)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const folder = 'public/build'
const compressible = /\.(js|css|json|svg)$/

for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !compressible.test(entry.name)) continue
  const file = join(entry.parentPath, entry.name)
  const content = readFileSync(file)
  const brotli = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  })
  const gzip = gzipSync(content, { level: 9 })
  if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli)
  if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip)
}
