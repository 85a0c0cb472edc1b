import { isIPv4 } from 'node:net'
import type { ErrorRequestHandler, RequestHandler } from 'express'
import { somethingWentWrong } from '#app/http/json.server'
import type { Log } from '#app/log'
import { refuse } from './refuse'

/** The methods some route here serves; Node's parser accepts others (TRACE, PROPFIND…) that nothing should see. */
const servedMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

export function refuseUnservedMethods(): RequestHandler {
  return (req, res, next) => {
    if (servedMethods.includes(req.method)) return next()
    res.set('Allow', servedMethods.join(', '))
    refuse(req, res, 405, `${req.method} is not allowed here.`)
  }
}

/** A host name or address with an optional port, as a browser sends it. */
export const hostShape = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/**
 * Whether a Host (with or without its port) names this site: an IP address, localhost, or one
 * of the site's own names. A page on a name whose DNS an attacker turned to this server's
 * address (DNS rebinding) is same-origin with itself, so only the name can give it away.
 */
export function isSiteHost(host: string, siteHosts: string[]): boolean {
  if (host.startsWith('[')) return true
  const name = host.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase()
  return name === 'localhost' || isIPv4(name) || siteHosts.includes(name)
}

export const notThisSite = 'This site does not answer to that name.'

/**
 * Remix builds every request's URL from the Host header and the path; a Host that is not a
 * host, or a target that is not a path (`GET http://other.example/…`, `OPTIONS *`), cannot be
 * served and is refused before it reaches Remix, which would fail on it with a 500. A host
 * name that is not the site's is refused too (421), whatever the path.
 */
export function requireSiteHost(siteHosts: string[]): RequestHandler {
  return (req, res, next) => {
    if (!req.url.startsWith('/')) return refuse(req, res, 400, 'The request target is not a path on this site.')
    if (!hostShape.test(req.headers.host ?? '')) return refuse(req, res, 400, 'The Host header is not a host name.')
    // Express's hostname: the Host header, or X-Forwarded-Host behind a trusted proxy.
    if (isSiteHost(req.hostname, siteHosts)) return next()
    refuse(req, res, 421, notThisSite)
  }
}

/**
 * The last word on any error Express sees: a short text or JSON answer and one log line,
 * never Express's own page with a stack trace and file paths.
 */
export function answerErrors(log: Log): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const status = Number((error as { status?: unknown }).status)
    const clientError = status >= 400 && status < 500
    if (clientError) log.warn({ err: error, status }, 'request refused')
    else log.error({ err: error }, 'request failed')
    if (res.headersSent) return void res.destroy()
    if (clientError) refuse(req, res, status, 'The request could not be read.')
    else refuse(req, res, 500, somethingWentWrong)
  }
}
