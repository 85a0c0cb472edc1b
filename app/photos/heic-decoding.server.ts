import { Worker } from 'node:worker_threads'

export interface HeicAsked {
  bytes: Uint8Array
  /** The most pixels its one image may have: the header was read against this already, the image is again. */
  pixelLimit: number
}

export type HeicDecoded = { ok: true; width: number; height: number; channels: 3 | 4; data: Uint8Array } | { ok: false }

/** A HEIC's decoding at most: a 50-megapixel photo decodes in a few seconds on a busy core. */
export const heicDecodingLimitMs = 60_000

/**
 * Decodes a HEIC photo (HEVC in HEIF, as an iPhone takes it) to bare pixels in a worker thread of
 * its own, ended once it answers, so the decoder's memory (it grows with the photo and is never
 * given back) goes with it. Not ok when the file cannot be decoded, holds more than one image,
 * or takes past the time limit. The photo maker decodes one photo at a time, so one worker at most.
 */
export function decodeHeic(workerUrl: URL, asked: HeicAsked, limitMs = heicDecodingLimitMs): Promise<HeicDecoded> {
  return new Promise((resolve) => {
    // The decoder writes why a file cannot be read to its stderr: the answer says so.
    const worker = new Worker(workerUrl, {
      workerData: asked,
      stdout: true,
      stderr: true,
      // The JavaScript heap only: the decoder's pixels are WebAssembly memory and buffers, bounded by the pixel limit.
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
    })
    worker.stdout.resume()
    worker.stderr.resume()
    const settle = (decoded: HeicDecoded) => {
      clearTimeout(timer)
      resolve(decoded)
      void worker.terminate()
    }
    const timer = setTimeout(() => settle({ ok: false }), limitMs)
    worker.once('message', settle)
    worker.once('error', () => settle({ ok: false }))
    worker.once('exit', () => settle({ ok: false }))
  })
}
