// HEIC photos are decoded here, by libheif compiled to WebAssembly (heic-decode): a phone's photo
// holds a core for a second or more, and here that holds up only this thread, which ends with it.
import { parentPort, workerData } from 'node:worker_threads'
import decode from 'heic-decode'
import type { HeicAsked, HeicDecoded } from './heic-decoding.server'

/** What heic-decode's `all` gives besides `decode`: each top-level image's size, read before decoding, and `dispose`. */
type Images = Array<{ width: number; height: number; decode: () => Promise<{ data: Uint8ClampedArray }> }> & {
  dispose: () => void
}

/** Four channels as decoded, or three when every pixel is opaque (as a camera's photo is). */
function withoutOpaqueAlpha(rgba: Uint8ClampedArray, pixels: number): { data: Uint8Array; channels: 3 | 4 } {
  for (let at = 3; at < rgba.length; at += 4) {
    if (rgba[at] !== 255) return { data: new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.length), channels: 4 }
  }
  const rgb = new Uint8Array(pixels * 3)
  for (let from = 0, to = 0; from < rgba.length; from += 4, to += 3) {
    rgb[to] = rgba[from]!
    rgb[to + 1] = rgba[from + 1]!
    rgb[to + 2] = rgba[from + 2]!
  }
  return { data: rgb, channels: 3 }
}

async function decoded({ bytes, pixelLimit }: HeicAsked): Promise<HeicDecoded> {
  const images = (await decode.all({ buffer: bytes })) as unknown as Images
  try {
    // One still image only, of no more pixels than the header promised the server.
    const [image] = images
    if (images.length !== 1 || !image) return { ok: false }
    const { width, height } = image
    if (width * height > pixelLimit) return { ok: false }
    const { data, channels } = withoutOpaqueAlpha((await image.decode()).data, width * height)
    return { ok: true, width, height, channels, data }
  } finally {
    images.dispose()
  }
}

const answer = await decoded(workerData as HeicAsked).catch((): HeicDecoded => ({ ok: false }))
parentPort?.postMessage(answer, answer.ok ? [answer.data.buffer as ArrayBuffer] : [])
