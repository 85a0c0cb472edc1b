import type { Request, RequestHandler, Response } from 'express'
import { photoLimits, photoWords } from '#app/photos/photo-words'
import { refuse } from './refuse'
import { routedPath } from './requests'

export const bodyLimitBytes = 16 * 1024
/**
 * What the owner writes (a reply of 20,000 characters, a saved reply) may take 12 bytes a
 * character once form-encoded (an emoji is %F0%9F%98%80): those paths take this much.
 */
export const ownerWritingLimitBytes = 256 * 1024
/** An update's text of 50,000 characters, form-encoded or JSON-escaped at 12 bytes each, and its subject. */
export const updateWritingLimitBytes = 1024 * 1024

/** A photo of 15 MB, and its form's other fields and multipart framing. */
export const photoUploadLimitBytes = photoLimits.bytes + 64 * 1024

// The settings too: the products the analysis looks for take up to 10,000 characters.
const ownerWriting =
  /^\/(?:farm-sales(?:\/saved-replies|\/settings)?|api\/settings|api\/submissions\/\d+\/replies(?:\/\d+)?)\/?$/
const updateWriting = /^\/(?:farm-sales\/updates|api\/updates)\/?$/
const photoUpload = /^\/farm-sales\/page\/photos\/?$/

/** How much a signed-in owner may send to this path (a reply, a saved reply, the settings, an update), as Remix would route it; null for the usual limit. */
export function ownerWritingLimit(path: string): number | null {
  const routed = routedPath(path)
  if (updateWriting.test(routed)) return updateWritingLimitBytes
  if (photoUpload.test(routed)) return photoUploadLimitBytes
  return ownerWriting.test(routed) ? ownerWritingLimitBytes : null
}

/** How long the rest of a refused upload is read and dropped before the server ends its side of the connection. */
export const refusedUploadLingerMs = 5_000

function tooLarge(req: Request, res: Response, limit: number) {
  // The answer must reach a client still sending, even one that reads it late: closing a connection
  // with bytes unread resets it, and the reset throws away the answer the client has not read yet.
  // So the rest is read and dropped; a moment after the answer the server ends its side (the client
  // then reads the answer and the end), and a client still sending is cut by Node's request timeout
  // (server/index.ts). A body that ends meanwhile leaves the connection as any other, ready for the
  // client's next request.
  req.resume()
  res.once('finish', () => {
    if (req.complete) return
    const socket = req.socket
    // A client that asked to close (`Connection: close`) has its connection ended by Node once the
    // answer is out, and destroyed as soon as that end is sent: with bytes still coming, a reset.
    socket.removeListener('finish', socket.destroy)
    const ending = setTimeout(() => socket.end(), refusedUploadLingerMs).unref()
    req.once('end', () => {
      clearTimeout(ending)
      // Ended already (asked to close, or past the linger): with the body read, nothing is left to come.
      if (socket.writableEnded) socket.destroy()
    })
    socket.once('close', () => clearTimeout(ending))
  })
  const words =
    limit === photoUploadLimitBytes ? photoWords.tooLarge : `The request body is larger than ${limit / 1024} KB.`
  refuse(req, res, 413, words)
}

/**
 * Reads the body first, capped whether or not a Content-Length was sent, and keeps it in
 * `res.locals.body` for the Remix handler and the submission fast path. The larger limit is
 * only for a signed-in owner (`isOwner` reads the session cookie) on the owner's writing paths.
 */
export function limitBody(isOwner: (cookie: string | undefined) => Promise<boolean>): RequestHandler {
  return async (req, res, next) => {
    // Read already, by a route answered before the rest (the one-click unsubscribe).
    if (req.method === 'GET' || req.method === 'HEAD' || res.locals.body) return next()
    const ownerLimit = ownerWritingLimit(req.path)
    const limit =
      ownerLimit !== null && (await isOwner(req.headers.cookie).catch(() => false)) ? ownerLimit : bodyLimitBytes
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
