import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { deflateSync } from 'node:zlib'
import sharp from 'sharp'
import type { RunningServer } from './server'

export const photosPage = '/farm-sales/page/photos'
const dataOfPhotos = `${photosPage}?_data=${encodeURIComponent('routes/farm-sales_.page_.photos')}`

/** A photo of soft colour gradients (quick to encode), `seed` making each one its own. */
export function stripes(width: number, height: number, seed = 1) {
  const pixels = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3
      pixels[at] = Math.floor((x * 255) / width)
      pixels[at + 1] = Math.floor((y * 255) / height)
      pixels[at + 2] = (seed * 37) % 256
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
}

/** A JPEG as a phone writes one: the camera's make and model and where it was taken (GPS) in its EXIF. */
export const jpegWithGps = (seed = 1) =>
  stripes(1200, 900, seed)
    .jpeg()
    .withExif({
      IFD0: { Make: 'Orchardcam', Model: 'Pocket 7' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 26/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 40/1' },
    })
    .toBuffer()

/**
 * A HEIC as an iPhone takes one (HEVC in HEIF), made from a JPEG by libheif's `heif-enc`
 * (Debian's libheif-examples, installed by scripts/ensure-test-tools.sh); the JPEG's EXIF,
 * GPS position and camera included, is carried into the HEIC.
 */
export async function heicFrom(jpeg: Buffer) {
  const folder = await mkdtemp(join(tmpdir(), 'farm-heic-'))
  try {
    await writeFile(join(folder, 'photo.jpg'), jpeg)
    await promisify(execFile)('heif-enc', [
      '--quality',
      '60',
      '--output',
      join(folder, 'photo.heic'),
      join(folder, 'photo.jpg'),
    ])
    return await readFile(join(folder, 'photo.heic'))
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/** Whether EXIF (as sharp's metadata gives it) points to a GPS position: IFD0's GPS tag, 0x8825. */
export function exifHasGps(exif: Buffer | undefined) {
  if (!exif) return false
  const tiff = exif.subarray(exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0)
  const little = tiff.subarray(0, 2).toString('latin1') === 'II'
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at))
  const ifd0 = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4)
  const entries = u16(ifd0)
  return Array.from({ length: entries }, (_, n) => u16(ifd0 + 2 + n * 12)).includes(0x8825)
}

/** A small still photo, its own bytes by `seed`. */
export const smallJpeg = (seed = 1) => stripes(64, 48, seed).jpeg().toBuffer()

const crc32 = (bytes: Buffer) => {
  let crc = ~0
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1))
  }
  return ~crc >>> 0
}
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/**
 * A decompression bomb: a real 20,000 × 20,000 PNG (1-bit grey, every row blank) of about 50 KB
 * that would decode to 400 megapixels.
 */
export function pngBomb() {
  const side = 20_000
  const header = Buffer.alloc(13)
  header.writeUInt32BE(side, 0)
  header.writeUInt32BE(side, 4)
  header.set([1, 0, 0, 0, 0], 8)
  const rows = deflateSync(Buffer.alloc((side / 8 + 1) * side), { level: 9 })
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** Two frames that differ, as an animated GIF or WebP. */
export async function animated(format: 'gif' | 'webp') {
  const frames = Buffer.concat([await stripes(40, 30, 1).raw().toBuffer(), await stripes(40, 30, 5).raw().toBuffer()])
  const image = sharp(frames, { raw: { width: 40, height: 60, channels: 3, pageHeight: 30 } })
  return (
    format === 'gif' ? image.gif({ loop: 0, delay: [100, 100] }) : image.webp({ loop: 0, delay: [100, 100] })
  ).toBuffer()
}

export const svgDrawing = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
)

/** A JPEG that is a web page too: the page after the picture's end. */
export const polyglotJpeg = async () =>
  Buffer.concat([await smallJpeg(9), Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')])

/** The photos page's form, posted as a browser does, with or without JavaScript (`_data`). */
export function postPhotoForm(
  server: RunningServer,
  cookie: string,
  fields: Record<string, string | { bytes: Buffer; name: string; type?: string }>,
  { javaScript = true } = {},
) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value)
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type ?? 'image/jpeg' }), value.name)
  }
  return fetch(`${server.url}${javaScript ? dataOfPhotos : photosPage}`, {
    method: 'POST',
    headers: { Cookie: cookie },
    body: form,
    redirect: 'manual',
  })
}

/** Uploads a photo: the answer as it came. */
export const uploadPhoto = (
  server: RunningServer,
  cookie: string,
  bytes: Buffer,
  { alt = 'Hens in the orchard', name = 'photo.jpg', type = 'image/jpeg', javaScript = true } = {},
) => postPhotoForm(server, cookie, { intent: 'add', alt, photo: { bytes, name, type } }, { javaScript })

/** The photos' alt texts on the home page, in order. */
export async function homePhotos(server: RunningServer) {
  const html = await (await fetch(server.url)).text()
  const section = /<section aria-labelledby="farm-photos"[\s\S]*?<\/section>/.exec(html)?.[0] ?? ''
  return { html, section, alts: [...section.matchAll(/<img [^>]*alt="([^"]*)"/g)].map((match) => match[1]!) }
}
