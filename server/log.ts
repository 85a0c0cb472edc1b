import { DrizzleQueryError } from 'drizzle-orm'
import { pino } from 'pino'
import type { RequestHandler } from 'express'

interface SafeError {
  type: string
  message: string
  code?: string
  stack?: string
  cause?: SafeError
}

/**
 * An error as it may be logged: its type, message, code, stack frames and
 * cause, and nothing else. pino's own serializer copies every enumerable
 * property, and a failed Drizzle query carries the values it bound (a
 * visitor's name, email and message) in `params` and in its message.
 */
export function serializeError(error: unknown, depth = 0): SafeError | unknown {
  if (!(error instanceof Error)) return error
  const safe: SafeError = {
    type: error.constructor.name,
    message: error instanceof DrizzleQueryError ? `Failed query: ${error.query}` : error.message,
  }
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') safe.code = code
  // Only the frames: the stack's first lines repeat the message.
  const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line))
  if (frames?.length) safe.stack = frames.join('\n')
  if (error.cause instanceof Error && depth < 3) safe.cause = serializeError(error.cause, depth + 1) as SafeError
  return safe
}

/** JSON lines; JSON escapes newlines, so one line is always one entry. Its level is LOG_LEVEL, set once read (server/index.ts). */
export const log = pino({
  level: 'info',
  base: undefined,
  serializers: { err: serializeError },
})

let requests = 0

/**
 * One line per request: method, path, status and time. Never bodies, query strings, cookies
 * or addresses: the inbox holds customers' personal data. Written by hand rather than with
 * pino-http, which builds two child loggers for every request (a tenth of a busy server's time).
 */
export const requestLog: RequestHandler = (req, res, next) => {
  const started = Date.now()
  const reqId = ++requests
  const path = req.url.split('?')[0]
  const done = (error?: Error) => {
    res.off('finish', done)
    res.off('close', done)
    res.off('error', done)
    const status = res.statusCode
    const line = { reqId, req: { method: req.method, path }, res: { status }, responseTime: Date.now() - started }
    if (error || status >= 500) log.error({ ...line, err: error }, 'request errored')
    else if (status >= 400) log.warn(line, 'request completed')
    else log.info(line, 'request completed')
  }
  res.on('finish', done)
  res.on('close', done)
  res.on('error', done)
  next()
}
