/** What a file's first bytes say it is, whatever its name or the browser's type say. */
export type Kind = 'jpeg' | 'png' | 'webp' | 'heif' | 'gif' | 'svg' | 'unknown'

const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1')

// AVIF and HEIC are both HEIF: an `ftyp` box naming one of these brands.
const heifBrands = new Set(['avif', 'avis', 'heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'])
/** The brands of a picture sequence: moving, as an animated GIF is. */
export const heifSequences = new Set(['avis', 'hevc', 'hevx', 'msf1', 'heis'])

export function kindOf(bytes: Uint8Array): Kind {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png'
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp'
  if (ascii(bytes, 4, 8) === 'ftyp' && heifBrands.has(ascii(bytes, 8, 12))) return 'heif'
  if (/^GIF8[79]a/.test(ascii(bytes, 0, 6))) return 'gif'
  // An SVG is text: an XML declaration, a comment or a doctype may come before its <svg.
  const head = Buffer.from(bytes.subarray(0, 4096))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
  if (/^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head)) return 'svg'
  return 'unknown'
}

/** The HEIF file's brand (`avif`, `heic`, `avis`…). */
export const heifBrand = (bytes: Uint8Array) => ascii(bytes, 8, 12)

const u32 = (bytes: Uint8Array, at: number) =>
  ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0

/** A PNG's chunks, walked to IEND: where the image ends, and whether it is an APNG (sharp shows only its first frame). */
export function pngLayout(bytes: Uint8Array): { end: number; animated: boolean } | null {
  let at = 8
  let animated = false
  while (at + 12 <= bytes.length) {
    const length = u32(bytes, at)
    const type = ascii(bytes, at + 4, at + 8)
    if (type === 'acTL') animated = true
    at += 12 + length
    if (type === 'IEND') return at <= bytes.length ? { end: at, animated } : null
  }
  return null
}

/** Where a WebP file ends by its own RIFF header (its size is even: one padding byte may follow). */
export function webpEnd(bytes: Uint8Array): number {
  const size = bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16) | (bytes[7]! * 0x1000000)
  return 8 + size + (size % 2)
}

/** Whether a WebP says it is animated (VP8X's animation flag). */
export const webpAnimated = (bytes: Uint8Array) => ascii(bytes, 12, 16) === 'VP8X' && (bytes[20]! & 0x02) !== 0

/**
 * Where a JPEG's image ends: past the segments to the first scan, then through the scans'
 * data (where 0xFF is followed by 0x00 or a restart marker) and any segments between them,
 * to the EOI marker. Null when the file ends first.
 */
export function jpegEnd(bytes: Uint8Array): number | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  let at = 2
  while (at + 2 <= bytes.length) {
    if (bytes[at] !== 0xff) {
      at = buffer.indexOf(0xff, at)
      if (at < 0) return null
      continue
    }
    const marker = bytes[at + 1]!
    if (marker === 0xd9) return at + 2
    if (marker === 0x00 || marker === 0xff || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2
      continue
    }
    // Any other marker starts a segment with its own length (SOS's is followed by the scan's data).
    if (at + 4 > bytes.length) return null
    at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!)
  }
  return null
}

/** Zeros a camera or an editor may pad a file with. */
const isPadding = (bytes: Uint8Array) => bytes.every((byte) => byte === 0 || byte === 0xff)

/**
 * What may follow a JPEG's image on a phone: another JPEG (the Multi-Picture Format's second
 * image, an HDR gain map), or a motion photo's video (an MP4, `ftyp`), or Samsung's trailer.
 */
function phoneTrailer(rest: Uint8Array): boolean {
  if (rest.length === 0 || isPadding(rest)) return true
  const start = rest.findIndex((byte) => byte !== 0)
  const tail = rest.subarray(start)
  if (tail[0] === 0xff && tail[1] === 0xd8 && tail[2] === 0xff) {
    const end = jpegEnd(tail)
    return end !== null && phoneTrailer(tail.subarray(end))
  }
  return ascii(rest, 4, 8) === 'ftyp' || ascii(rest, rest.length - 4, rest.length) === 'SEFT'
}

/** Where a still image of this kind ends, and whether what follows it is the camera's own. */
function trailingProblem(bytes: Uint8Array, kind: Kind): string | null {
  const after = 'something else is stored after the picture'
  switch (kind) {
    case 'png': {
      const layout = pngLayout(bytes)
      return layout && !isPadding(bytes.subarray(layout.end)) ? after : null
    }
    case 'webp':
      return isPadding(bytes.subarray(webpEnd(bytes))) ? null : after
    case 'jpeg': {
      const end = jpegEnd(bytes)
      return end === null || phoneTrailer(bytes.subarray(end)) ? null : after
    }
    default:
      return null
  }
}

// What a browser, a PHP server or a PDF reader would run or show from a file that is also a picture.
// Only marks of five bytes or more: a photo's compressed bytes hold three-byte ones such as ASP's
// `<% ` by chance (a large photo almost always), and the upload itself is never kept or served.
const activeContent = /<(?:script|html|body|iframe|object|embed|svg|!doctype|\?php)[\s>/]/i
const activeContentLongest = 12

/** A zip archive (a JAR, an Office file) ends with its directory's record, which names its own comment's length. */
function endsAsZip(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 65_557)))
  for (let at = tail.lastIndexOf('PK\x05\x06', undefined, 'latin1'); at >= 0;) {
    if (at + 22 + (tail[at + 20]! | (tail[at + 21]! << 8)) === tail.length) return true
    at = at === 0 ? -1 : tail.lastIndexOf('PK\x05\x06', at - 1, 'latin1')
  }
  return false
}

const sliceBytes = 1024 * 1024

/**
 * Why a file that is a picture is also something else (a polyglot: a picture and a page, a
 * script, an archive or a PDF), or null. Read a slice at a time, letting other requests run
 * between slices. The file is never served as sent, but one that hides something is not taken.
 */
export async function polyglotProblem(
  bytes: Uint8Array,
  kind: Kind,
  between: () => Promise<unknown> = () => Promise.resolve(),
): Promise<string | null> {
  const trailing = trailingProblem(bytes, kind)
  if (trailing) return trailing
  if (endsAsZip(bytes)) return 'it is also a zip archive'
  if (Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-', 0, 'latin1')) return 'it is also a PDF'
  for (let at = 0; at < bytes.length; at += sliceBytes) {
    const slice = Buffer.from(bytes.subarray(at, Math.min(bytes.length, at + sliceBytes + activeContentLongest)))
    if (activeContent.test(slice.toString('latin1'))) return 'it holds a web page or a script'
    await between()
  }
  return null
}
