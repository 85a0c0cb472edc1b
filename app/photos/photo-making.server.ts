import { createHash } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type Sharp from 'sharp'
import type { Metadata, OutputInfo, Sharp as Image } from 'sharp'
import { refuse, type Answer } from '#app/http/refusal.server'
import { decodeHeic } from './heic-decoding.server'
import { heifBrand, heifSequences, kindOf, pngLayout, polyglotProblem, webpAnimated, type Kind } from './photo-checks'
import { photoLimits, photoWords, type PhotoFormat } from './photo-words'

type SharpModule = typeof Sharp
let loading: Promise<SharpModule> | undefined

/** libvips is loaded with the first photo: a site that never takes one does not hold it (some 10 MB). */
function sharpLoaded(): Promise<SharpModule> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // Nothing of one photo is kept in libvips' cache for the next.
    sharp.cache(false)
    return sharp
  })
  return loading
}

/** The widths each photo is made at (no wider than it came): a phone's, a laptop's, a large screen's. */
export const photoWidths = [480, 960, 1600] as const

export interface MadeFile {
  name: string
  format: PhotoFormat
  width: number
  height: number
  bytes: Buffer
}

export type Made = Answer<{ width: number; height: number; files: MadeFile[] }>

const extensions: Record<PhotoFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' }

const encode: Record<PhotoFormat, (image: Image) => Image> = {
  avif: (image) => image.avif({ quality: 50, effort: 2 }),
  webp: (image) => image.webp({ quality: 78 }),
  jpeg: (image) => image.flatten({ background: '#ffffff' }).jpeg({ quality: 80, mozjpeg: true }),
}

/** The widths a photo this wide is made at: each of photoWidths it reaches, and its own when narrower than the largest. */
export function widthsFor(width: number): number[] {
  const reached = photoWidths.filter((each) => each <= width)
  return width < photoWidths.at(-1)! && !reached.includes(width as never) ? [...reached, width] : reached
}

/** Why the header (read before a pixel is decoded) refuses the file, or null. */
function headerProblem(kind: Kind, bytes: Uint8Array, header: Metadata): string | null {
  const sharpKind = header.format === 'heif' ? 'heif' : header.format
  if (sharpKind !== kind) return photoWords.notAPhoto
  const { width, height } = header
  if (width * height > photoLimits.pixels) return photoWords.tooManyPixels(width, height)
  if (kind === 'heif' && header.compression === 'hevc' && width * height > photoLimits.heicPixels) {
    return photoWords.tooManyHeicPixels(width, height)
  }
  const animated =
    (header.pages ?? 1) > 1 ||
    (kind === 'png' && pngLayout(bytes)?.animated === true) ||
    (kind === 'webp' && webpAnimated(bytes)) ||
    (kind === 'heif' && heifSequences.has(heifBrand(bytes)))
  if (animated) return photoWords.animated
  return null
}

/** Checks a file before anything decodes it: its size, its own first bytes, its header. */
async function check(bytes: Uint8Array): Promise<Answer<{ hevc: boolean }>> {
  if (bytes.length > photoLimits.bytes) return refuse(400, photoWords.tooLarge, 'photo')
  if (bytes.length === 0) return refuse(400, photoWords.none, 'photo')
  const kind = kindOf(bytes)
  if (kind === 'svg') return refuse(400, photoWords.svg, 'photo')
  if (kind === 'unknown') return refuse(400, photoWords.notAPhoto, 'photo')
  const sharp = await sharpLoaded()
  let header: Metadata
  try {
    header = await sharp(bytes, { limitInputPixels: false }).metadata()
  } catch {
    return refuse(400, kind === 'gif' ? photoWords.gif : photoWords.unreadable, 'photo')
  }
  const problem = headerProblem(kind, bytes, header)
  if (problem) return refuse(400, problem, 'photo')
  if (kind === 'gif') return refuse(400, photoWords.gif, 'photo')
  const polyglot = await polyglotProblem(bytes, kind, nextTurn)
  if (polyglot) return refuse(400, photoWords.polyglot(polyglot), 'photo')
  return { ok: true, hevc: kind === 'heif' && header.compression === 'hevc' }
}

/**
 * The photo as sharp reads it, turned upright: by its EXIF orientation; a HEIC (which sharp's
 * libvips cannot decode) from the pixels its worker decoded, turned as its own boxes say.
 */
async function upright(bytes: Uint8Array, hevc: boolean, heicWorkerUrl: URL): Promise<Image | null> {
  const sharp = await sharpLoaded()
  if (!hevc) return sharp(bytes, { limitInputPixels: photoLimits.pixels, failOn: 'error', pages: 1 }).autoOrient()
  const decoded = await decodeHeic(heicWorkerUrl, { bytes, pixelLimit: photoLimits.heicPixels })
  if (!decoded.ok) return null
  const { width, height, channels, data } = decoded
  return sharp(data, { raw: { width, height, channels }, limitInputPixels: photoLimits.pixels })
}

/**
 * Decodes the photo once (turned upright, in sRGB, at the largest width it is made at) to
 * pixels, and encodes each width and format from those: nothing of the upload's metadata
 * (GPS position, camera, its own colour profile) can reach a file made from bare pixels.
 */
async function remake(bytes: Uint8Array, hevc: boolean, heicWorkerUrl: URL): Promise<Made> {
  let pixels: { data: Buffer; info: OutputInfo }
  try {
    const image = await upright(bytes, hevc, heicWorkerUrl)
    if (!image) return refuse(400, photoWords.unreadable, 'photo')
    pixels = await image
      .resize({ width: photoWidths.at(-1), withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true })
  } catch {
    return refuse(400, photoWords.unreadable, 'photo')
  }
  const { width, height, channels } = pixels.info
  const sharp = await sharpLoaded()
  const files: MadeFile[] = []
  for (const each of widthsFor(width)) {
    for (const format of ['avif', 'webp', 'jpeg'] as const) {
      const image = sharp(pixels.data, { raw: { width, height, channels } }).resize({ width: each })
      const { data, info } = await encode[format](image).toBuffer({ resolveWithObject: true })
      const hash = createHash('sha256').update(data).digest('base64url').slice(0, 22)
      files.push({ name: `${hash}.${extensions[format]}`, format, width: info.width, height: info.height, bytes: data })
    }
  }
  return { ok: true, width, height, files }
}

/**
 * Makes the page's files of an uploaded photo, or says why it is refused. sharp does the work in
 * its own threads, and a HEIC's decoding its worker thread, never on the event loop's; at most `atOnce` photos are made at a time (each
 * holds its pixels and keeps a core busy), `waiting` more wait their turn, and more are refused.
 */
export function createPhotoMaker({
  heicWorkerUrl,
  atOnce = 1,
  waiting = 4,
}: {
  /** The HEIC decoder's worker (heic-worker.server.ts, as built or through its .mjs from source). */
  heicWorkerUrl: URL
  atOnce?: number
  waiting?: number
}) {
  // Counted from the start: a photo being checked holds its upload (up to 15 MB) too.
  let admitted = 0
  let working = 0
  const queue: Array<() => void> = []
  async function turn() {
    if (working < atOnce) return void working++
    await new Promise<void>((resolve) => queue.push(resolve))
  }
  function done() {
    const next = queue.shift()
    if (next) next()
    else working--
  }
  return {
    async make(bytes: Uint8Array): Promise<Made> {
      if (admitted >= atOnce + waiting) return refuse(429, photoWords.busy, 'photo')
      admitted++
      try {
        const checked = await check(bytes)
        if (!checked.ok) return checked
        await turn()
        try {
          return await remake(bytes, checked.hevc, heicWorkerUrl)
        } finally {
          done()
        }
      } finally {
        admitted--
      }
    },
  }
}

export type PhotoMaker = ReturnType<typeof createPhotoMaker>
