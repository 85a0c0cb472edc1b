import { DrizzleQueryError } from 'drizzle-orm'
import { pino } from 'pino'
import { pinoHttp } from 'pino-http'

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
export function serializeError(value: unknown, depth = 0): SafeError | unknown {
  // pino-http hands its serializers pino's already-serialized error, with the original as `raw`.
  const error = value instanceof Error ? value : (value as { raw?: unknown } | null)?.raw
  if (!(error instanceof Error)) return value
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

/** JSON lines; JSON escapes newlines, so one line is always one entry. */
export const log = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: undefined,
  serializers: { err: serializeError },
})

/**
 * One line per request: method, path, status and time. Never bodies, query
 * strings, cookies or addresses: the inbox holds customers' personal data.
 */
export const requestLog = pinoHttp({
  logger: log,
  quietReqLogger: true,
  serializers: {
    req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
    res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    err: serializeError,
  },
  customLogLevel: (_req, res, error) =>
    error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
})
