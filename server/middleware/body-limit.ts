import { Readable } from 'node:stream'
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
 * The Remix adapter streams `req` straight into the Request it builds, so no
 * Express body limit reaches it. This reads the body first, capped whether or
 * not a Content-Length was sent, and keeps it for the Remix handler.
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

/** The request as the Remix adapter reads it, with the body already read. */
export function withReadBody(req: Request, body: Buffer): Request {
  return Object.assign(Readable.from([body]), {
    method: req.method,
    headers: req.headers,
    originalUrl: req.originalUrl,
    protocol: req.protocol,
    hostname: req.hostname,
    get: req.get.bind(req),
  }) as unknown as Request
}
