import type { Request, RequestHandler, Response } from 'express'
import { refuse } from './refuse'

export const bodyLimitBytes = 16 * 1024

function tooLarge(req: Request, res: Response) {
  // Stop reading the rest of an oversized upload once the answer is out.
  res.set('Connection', 'close')
  res.once('finish', () => req.destroy())
  refuse(req, res, 413, `The request body is larger than ${bodyLimitBytes / 1024} KB.`)
}

/**
 * Reads the body first, capped whether or not a Content-Length was sent, and keeps it in
 * `res.locals.body` for the Remix handler and the submission fast path.
 */
export function limitBody(): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next()
    const declared = Number(req.headers['content-length'])
    if (declared > bodyLimitBytes) return tooLarge(req, res)
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= bodyLimitBytes) return void chunks.push(chunk)
      req.off('data', onData)
      req.off('end', onEnd)
      tooLarge(req, res)
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
