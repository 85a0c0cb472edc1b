import { pino } from 'pino'
import { pinoHttp } from 'pino-http'

/** JSON lines; JSON escapes newlines, so one line is always one entry. */
export const log = pino({ level: process.env.LOG_LEVEL ?? 'info', base: undefined })

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
  },
  customLogLevel: (_req, res, error) =>
    error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
})
