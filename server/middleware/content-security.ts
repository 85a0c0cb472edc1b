import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestHandler } from 'express'
import helmet from 'helmet'
import type { Config } from '#server/config'

type Res = ServerResponse & { locals: { cspNonce: string } }

/** The live link's own address; requireHostShape has already refused any Host that is not a host. */
function liveOrigin(scheme: 'ws' | 'wss') {
  return (req: IncomingMessage) => `${scheme}://${req.headers.host}`
}

/** A fresh nonce per response: only the scripts Remix renders with it may run. */
export function cspNonce(): RequestHandler {
  return (_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString('base64')
    next()
  }
}

export function securityHeaders({
  mode,
  devServerOrigin,
  hstsIncludeSubDomains,
}: Pick<Config, 'mode' | 'devServerOrigin' | 'hstsIncludeSubDomains'>): RequestHandler {
  // In development the Remix dev server's live reload talks to its own port.
  const devServer = devServerOrigin ? [devServerOrigin.replace(/^http/, 'ws')] : []
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': [
          "'self'",
          (_req: IncomingMessage, res: ServerResponse) => `'nonce-${(res as Res).locals.cspNonce}'`,
        ],
        // framer-motion animates through style attributes and sonner adds its own <style>.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'", liveOrigin('ws'), liveOrigin('wss'), ...devServer],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only the owner knows whether every subdomain is on HTTPS too.
    strictTransportSecurity:
      mode === 'production' ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: hstsIncludeSubDomains } : false,
  })
}
