import { fstatSync } from 'node:fs'
import { isatty } from 'node:tty'
import { DrizzleQueryError } from 'drizzle-orm'
import { pino } from 'pino'
import SonicBoom from 'sonic-boom'
import type { RequestHandler } from 'express'
import { withoutWaysIn } from '#app/log'
import { textOf } from '#app/outside'

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
    message:
      error instanceof DrizzleQueryError
        ? `Failed query: ${error.query}`
        : withoutWaysIn(withoutAddresses(error.message)),
  }
  const code = textOf(error, 'code')
  if (code !== undefined) safe.code = code
  // Only the frames: the stack's first lines repeat the message.
  const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line))
  if (frames?.length) safe.stack = frames.join('\n')
  if (error.cause instanceof Error && depth < 3) safe.cause = serializeError(error.cause, depth + 1) as SafeError
  return safe
}

// An address inside a text from outside (a mail server's refusal names the recipient): never logged.
const anAddress = /[^\s<>()[\]",;:@]+@(?:\[[^\]\s]*\]|[^\s<>()[\]"',;:=@]+)/g

/** A text that came from outside, as it may be logged: without the email addresses it names. */
export const withoutAddresses = (text: string) => text.replace(anAddress, '(an address)')

/** Whether writing to this descriptor can never wait on a reader: a regular file, or a device that is not a terminal. */
function neverStalls(fd: number): boolean {
  try {
    const kind = fstatSync(fd)
    return kind.isFile() || (kind.isCharacterDevice() && !isatty(fd))
  } catch {
    return false
  }
}

/**
 * The site's log: JSON lines (JSON escapes newlines, so one line is always one entry), written to
 * standard output asynchronously, so a reader that stops reading (a full pipe) never blocks a
 * request or the shutdown. What it cannot take yet waits in a buffer of at most
 * `mostUnwrittenBytes`; past that, lines are dropped and counted, and the count is logged once it
 * reads again. The stream is made here rather than by pino.destination, which would write what is
 * left synchronously at exit, and so wait on that reader after all.
 */
export function createLog({ fd = 1, mostUnwrittenBytes = 4 * 1024 * 1024 } = {}) {
  // minLength 1 writes each line at once, as 0 would, and makes flush() wait until it is written.
  // A file (or /dev/null) takes every write at once: written in place, with no thread of libuv's
  // pool kept for it (a few MB of memory); anything with a reader (a pipe, a socket, a terminal) is not.
  const output = new SonicBoom({ fd, sync: neverStalls(fd), minLength: 1, maxLength: mostUnwrittenBytes })
  const log = pino(
    {
      level: 'info',
      base: undefined,
      serializers: {
        err: serializeError,
        // What a receiver answered (a mail server's refusal) may name the visitor it was for.
        reason: (reason: unknown) => (typeof reason === 'string' ? withoutAddresses(reason) : reason),
      },
    },
    output,
  )
  let droppedLines = 0
  output.on('drop', (data: string) => {
    droppedLines += data.split('\n').length - 1 || 1
  })
  // Said once all it held is written, so the line itself has room.
  output.on('drain', () => {
    if (droppedLines === 0) return
    const dropped = droppedLines
    droppedLines = 0
    log.warn({ droppedLines: dropped }, 'standard output was not read for a while; these log lines were dropped')
  })
  // A reader gone for good (EPIPE): the site goes on without its log.
  output.on('error', () => {})

  return {
    log,
    /** Writes out what the log holds, or gives up after `ms`: a reader that stopped reading must not hold the exit. */
    flush(ms: number): Promise<void> {
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, ms)
        timer.unref()
        output.flush(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    },
  }
}

const site = createLog()
/** The site's log. Its level is LOG_LEVEL, set once read (server/index.ts). */
export const log = site.log
export const flushLog = site.flush

let requests = 0

/**
 * One line per request: method, path, status and time. Never bodies, query strings, cookies
 * or addresses: the inbox holds customers' personal data; nor an invitation's or set-up link's
 * token, a way in for whoever reads the log (a mail scanner may open the link before its person). Written by hand rather than with
 * pino-http, which builds two child loggers for every request (a tenth of a busy server's time).
 */
export const requestLog: RequestHandler = (req, res, next) => {
  const started = Date.now()
  const reqId = ++requests
  const path = withoutWaysIn(req.url.split('?')[0]!)
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
