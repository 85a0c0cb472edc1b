import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { RequestHandler } from 'express'
import type { TrustProxy } from '#server/client-address'
import { refuse } from './refuse'

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

interface Asked {
  headers: IncomingHttpHeaders
  /** The site's own origin as this request reached it, e.g. http://farm.example:3000. */
  ownOrigin: string
}

/**
 * A browser says where a request comes from: Sec-Fetch-Site in its own words,
 * Origin as an address. Requests that say neither come from other programs,
 * which the API serves as the spec says.
 */
export function comesFromAllowedSite({ headers, ownOrigin }: Asked, allowedOrigins: string[]): boolean {
  const site = headers['sec-fetch-site']
  if (site === 'same-origin' || site === 'none') return true
  const origin = headers.origin
  if (origin && origin !== 'null') return origin === ownOrigin || allowedOrigins.includes(origin)
  return site === undefined && origin === undefined
}

/**
 * The host name an upgrade asked for, as Express's `req.hostname` reads it: X-Forwarded-Host
 * when the socket's peer is a trusted proxy, else Host.
 */
export function upgradeHost(req: IncomingMessage, trust: TrustProxy): string {
  const forwarded = trust(req.socket.remoteAddress ?? '', 0)
    ? String(req.headers['x-forwarded-host'] ?? '')
        .split(',')[0]!
        .trim()
    : ''
  return forwarded || (req.headers.host ?? '')
}

/**
 * The site's own origin as a WebSocket upgrade reached it. Upgrades bypass Express, so this
 * reads X-Forwarded-Proto itself, and only when the proxy is trusted (TRUST_PROXY).
 */
export function upgradeOrigin(req: IncomingMessage, trustForwardedProto: boolean): string {
  const forwarded = trustForwardedProto ? String(req.headers['x-forwarded-proto'] ?? '').split(',')[0] : ''
  const scheme = forwarded || ('encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http')
  return `${scheme}://${req.headers.host}`
}

/** Refuses state-changing requests sent by other sites' pages (Remix alone answers them an empty 500). */
export function requireSameOrigin(allowedOrigins: string[]): RequestHandler {
  return (req, res, next) => {
    if (safeMethods.has(req.method)) return next()
    const ownOrigin = `${req.protocol}://${req.get('host')}`
    if (comesFromAllowedSite({ headers: req.headers, ownOrigin }, allowedOrigins)) return next()
    refuse(req, res, 403, 'Requests from other sites are not accepted here.')
  }
}
