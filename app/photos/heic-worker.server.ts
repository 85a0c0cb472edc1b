// HEIC photos are decoded here, by libheif compiled to WebAssembly (heic-decode): a phone's photo
// holds a core for a second or more, and here that holds up only this thread, which ends with it.
import { parentPort, workerData } from 'node:worker_threads'
import decode from 'heic-decode'
import type { HeicAsked, HeicDecoded } from './heic-decoding.server'

/** What heic-decode's `all` gives besides `decode`: each top-level image's size, read before decoding, and `dispose`. */
type Images = Array<{ width: number; height: number; decode: () => Promise<{ data: Uint8ClampedArray }> }> & {
  dispose: () => void
}

/**
 * Four channels as decoded, or three when every pixel is opaque (as a camera's photo is), packed
 * in place: the decoder's copy is the only one the photo's pixels take in this thread.
 */
function withoutOpaqueAlpha(rgba: Uint8ClampedArray): { data: Uint8Array; channels: 3 | 4 } {
  const bytes = new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.length)
  for (let at = 3; at < bytes.length; at += 4) if (bytes[at] !== 255) return { data: bytes, channels: 4 }
  for (let from = 0, to = 0; from < bytes.length; from += 4, to += 3) {
    bytes[to] = bytes[from]!
    bytes[to + 1] = bytes[from + 1]!
    bytes[to + 2] = bytes[from + 2]!
  }
  return { data: bytes.subarray(0, (bytes.length / 4) * 3), channels: 3 }
}

async function decoded({ bytes, pixelLimit }: HeicAsked): Promise<HeicDecoded> {
  const images = (await decode.all({ buffer: bytes })) as unknown as Images
  try {
    // One still image only, held again to the pixel limit its header was (the decoder reads its own).
    const [image] = images
    if (images.length !== 1 || !image) return { ok: false }
    const { width, height } = image
    if (width * height > pixelLimit) return { ok: false }
    const { data, channels } = withoutOpaqueAlpha((await image.decode()).data)
    return { ok: true, width, height, channels, data }
  } finally {
    images.dispose()
  }
}

const answer = await decoded(workerData as HeicAsked).catch((): HeicDecoded => ({ ok: false }))
parentPort?.postMessage(answer, answer.ok ? [answer.data.buffer as ArrayBuffer] : [])
