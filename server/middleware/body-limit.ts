import type { Request, RequestHandler, Response } from 'express'
import { refuse } from './refuse'

export const bodyLimitBytes = 16 * 1024
/**
 * What the owner writes (a reply of 20,000 characters, a saved reply) may take 12 bytes a
 * character once form-encoded (an emoji is %F0%9F%98%80): those paths take this much.
 */
export const ownerWritingLimitBytes = 256 * 1024

const ownerWriting = /^\/(?:farm-sales(?:\/saved-replies)?|api\/submissions\/\d+\/replies(?:\/\d+)?)\/?$/

/** The path as Remix matches it: percent-decoded, repeated slashes as one, any case. */
function routedPath(path: string): string {
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    // Remix would not route it either; the small limit stands.
  }
  return decoded.replace(/\/{2,}/g, '/').toLowerCase()
}

/** The most a request to this path may send. */
export function bodyLimitFor(path: string): number {
  return ownerWriting.test(routedPath(path)) ? ownerWritingLimitBytes : bodyLimitBytes
}

function tooLarge(req: Request, res: Response, limit: number) {
  // Stop reading the rest of an oversized upload once the answer is out.
  res.set('Connection', 'close')
  res.once('finish', () => req.destroy())
  refuse(req, res, 413, `The request body is larger than ${limit / 1024} KB.`)
}

/**
 * Reads the body first, capped whether or not a Content-Length was sent, and keeps it in
 * `res.locals.body` for the Remix handler and the submission fast path.
 */
export function limitBody(): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next()
    const limit = bodyLimitFor(req.path)
    const declared = Number(req.headers['content-length'])
    if (declared > limit) return tooLarge(req, res, limit)
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      req.off('data', onData)
      req.off('end', onEnd)
      tooLarge(req, res, limit)
    }
    const onEnd = () => {
      res.locals.body = Buffer.concat(chunks)
      next()
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', next)
  }
}
