import { randomBytes } from 'node:crypto'
import { brotliDecompressSync, constants, crc32, createBrotliCompress, deflateRawSync, gunzipSync } from 'node:zlib'

/** What each answer puts into the kept page: its own CSP nonce and its own form token. */
export interface Filling {
  nonce: string
  token: string
}
type Hole = keyof Filling

/** A rendered page cut where the nonce and the token were: `parts` has one more entry than `holes`. */
export interface PageTemplate {
  parts: Buffer[]
  holes: Hole[]
  /** Each hole's length as rendered: the brotli form holds only a filling of the same length. */
  lengths: Record<Hole, number>
  gzip: Buffer[] | null
  brotli: BrotliForm | null
}

/**
 * The page cut at every place the rendered nonce and token appear; null when either is missing
 * (the page would not be the one this cache knows how to fill).
 */
export async function templateOf(html: string, rendered: Filling): Promise<PageTemplate | null> {
  const found: Array<{ at: number; hole: Hole }> = []
  for (const hole of ['nonce', 'token'] as const) {
    const value = rendered[hole]
    if (value === '') return null
    for (let at = html.indexOf(value); at !== -1; at = html.indexOf(value, at + value.length)) found.push({ at, hole })
    if (!found.some((one) => one.hole === hole)) return null
  }
  found.sort((a, b) => a.at - b.at)
  const parts: Buffer[] = []
  let from = 0
  for (const { at, hole } of found) {
    if (at < from) return null
    parts.push(Buffer.from(html.slice(from, at)))
    from = at + rendered[hole].length
  }
  parts.push(Buffer.from(html.slice(from)))
  const cut = {
    parts,
    holes: found.map((one) => one.hole),
    lengths: { nonce: rendered.nonce.length, token: rendered.token.length },
  }
  const gzip = parts.map((part) => deflateRawSync(part, { finishFlush: constants.Z_SYNC_FLUSH }))
  const page = { ...cut, gzip: null, brotli: await brotliForm(cut) }
  // Each compressed form is kept only once it is shown to open to the page with other fillings.
  return { ...page, gzip: opensRight({ ...page, gzip }, 'gzip') ? gzip : null }
}

/** The page with this answer's nonce and token. */
export function filled(page: PageTemplate, filling: Filling): Buffer {
  const pieces: Buffer[] = []
  page.parts.forEach((part, index) => {
    pieces.push(part)
    const hole = page.holes[index]
    if (hole) pieces.push(Buffer.from(filling[hole]))
  })
  return Buffer.concat(pieces)
}

/**
 * The page gzipped with this answer's nonce and token: the parts were deflated once, each on its
 * own (no reference crosses a hole); a hole is a stored block. Only the checksum is counted anew.
 */
export function gzipped(page: PageTemplate & { gzip: Buffer[] }, filling: Filling): Buffer {
  const pieces: Buffer[] = [Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])]
  let crc = 0
  let size = 0
  page.parts.forEach((part, index) => {
    pieces.push(page.gzip[index]!)
    crc = crc32(part, crc)
    size += part.length
    const hole = page.holes[index]
    if (!hole) return
    const value = Buffer.from(filling[hole])
    pieces.push(
      Buffer.from([0, value.length & 0xff, value.length >> 8, ~value.length & 0xff, (~value.length >> 8) & 0xff]),
    )
    pieces.push(value)
    crc = crc32(value, crc)
    size += value.length
  })
  const trailer = Buffer.alloc(10)
  // The final block, empty; then the checksum and the size, as gzip ends.
  trailer.writeUInt16LE(0x0003, 0)
  trailer.writeUInt32LE(crc >>> 0, 2)
  trailer.writeUInt32LE(size >>> 0, 6)
  pieces.push(trailer)
  return Buffer.concat(pieces)
}

/**
 * Brotli of the page with holes: the compressed pieces between them, and how many of the page's
 * bytes after each hole ride in it (so the bytes before what follows are the same as compressed).
 */
interface BrotliForm {
  pieces: Buffer[]
  carried: number
}

/** Bytes no page holds, for the stand-ins compressed in the holes' places. */
const standInBytes = [...Array(32).keys()].filter((byte) => byte !== 0 && byte !== 9 && byte !== 10 && byte !== 13)

const isStandIn = Array.from({ length: 256 }, (_, byte) => standInBytes.includes(byte))

/** A run of stand-in bytes in which no two-byte sequence comes twice, so no copy can start in a stand-in. */
function standIns(length: number): Buffer | null {
  const size = standInBytes.length
  // A de Bruijn sequence over the stand-in bytes, pairs.
  const sequence: number[] = []
  const a = new Array<number>(3).fill(0)
  const build = (t: number, p: number) => {
    if (t > 2) {
      if (2 % p === 0) for (let i = 1; i <= p; i++) sequence.push(a[i]!)
      return
    }
    a[t] = a[t - p]!
    build(t + 1, p)
    for (let j = a[t - p]! + 1; j < size; j++) {
      a[t] = j
      build(t + 1, t)
    }
  }
  build(1, 1)
  return length > sequence.length ? null : Buffer.from(sequence.slice(0, length).map((index) => standInBytes[index]!))
}

/**
 * Compressed once per change: each hole (with the two page bytes after it, which set how the next
 * bytes are coded) becomes an uncompressed meta-block, filled per answer; the rest is compressed
 * at quality 9, flushed at every hole so no piece refers into one.
 */
async function brotliForm(page: Omit<PageTemplate, 'gzip' | 'brotli'>): Promise<BrotliForm | null> {
  const carried = 2
  const holeBytes = page.holes.reduce((sum, hole) => sum + page.lengths[hole], 0)
  const stand = standIns(holeBytes)
  const standsApart = page.parts.every((part) => !part.some((byte) => isStandIn[byte]))
  if (!stand || !standsApart || page.parts.slice(1).some((part) => part.length < carried)) return null
  const input: Buffer[] = [page.parts[0]!]
  let used = 0
  page.holes.forEach((hole, index) => {
    const next = page.parts[index + 1]!
    input.push(Buffer.concat([stand.subarray(used, (used += page.lengths[hole])), next.subarray(0, carried)]))
    input.push(next.subarray(carried))
  })
  const compressed = await compressFlushingEach(input)
  const form = { pieces: compressed.filter((_, index) => index % 2 === 0), carried }
  return opensRight({ ...page, gzip: null, brotli: form }, 'brotli') ? form : null
}

async function compressFlushingEach(input: Buffer[]): Promise<Buffer[]> {
  const stream = createBrotliCompress({
    params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  })
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  const taken = () => Buffer.concat(chunks.splice(0))
  const outputs: Buffer[] = []
  for (const piece of input) {
    stream.write(piece)
    await new Promise<void>((resolve) => stream.flush(constants.BROTLI_OPERATION_FLUSH, () => resolve()))
    await new Promise((resolve) => setImmediate(resolve))
    outputs.push(taken())
  }
  // Its last bytes close the last piece: all read once the stream says it has ended.
  await new Promise((resolve) => {
    stream.once('end', resolve)
    stream.end()
  })
  outputs[outputs.length - 1] = Buffer.concat([outputs.at(-1)!, taken()])
  return outputs
}

/** The page in brotli with this answer's nonce and token; null when a filling's length differs from the rendered one. */
export function brotlied(page: PageTemplate & { brotli: BrotliForm }, filling: Filling): Buffer | null {
  const { pieces, carried } = page.brotli
  const out: Buffer[] = [pieces[0]!]
  for (const [index, hole] of page.holes.entries()) {
    const value = Buffer.from(filling[hole])
    if (value.length !== page.lengths[hole]) return null
    const next = page.parts[index + 1]!
    const length = value.length + carried
    // ISLAST 0, MNIBBLES 4, MLEN − 1 in 16 bits, ISUNCOMPRESSED 1, then zero bits to the byte.
    const header = ((length - 1) << 3) | (1 << 19)
    out.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), value)
    out.push(next.subarray(0, carried), pieces[index + 1]!)
  }
  return Buffer.concat(out)
}

/** Whether a compressed form opens to the page for two fillings other than the rendered one. */
function opensRight(page: PageTemplate, form: 'gzip' | 'brotli'): boolean {
  for (let round = 0; round < 2; round++) {
    const filling = {
      nonce: randomBytes(page.lengths.nonce).toString('base64url').slice(0, page.lengths.nonce),
      token: randomBytes(page.lengths.token).toString('base64url').slice(0, page.lengths.token),
    }
    try {
      const opened =
        form === 'gzip' && page.gzip
          ? gunzipSync(gzipped({ ...page, gzip: page.gzip }, filling))
          : page.brotli
            ? brotliDecompressSync(brotlied({ ...page, brotli: page.brotli }, filling)!)
            : null
      if (!opened?.equals(filled(page, filling))) return false
    } catch {
      return false
    }
  }
  return true
}
