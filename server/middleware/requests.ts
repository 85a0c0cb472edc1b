import type { ErrorRequestHandler, RequestHandler } from 'express'
import { somethingWentWrong } from '#app/http/json.server'
import type { Log } from '#app/log'
import { refuse } from './refuse'
import { propertyOf } from '#app/outside'

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
 * Remix builds every request's URL from the Host header and the path; a Host that is not a
 * host, or a target that is not a path (`GET http://other.example/…`, `OPTIONS *`), cannot be
 * served and is refused before it reaches Remix, which would fail on it with a 500. Which names
 * may open the inbox is the owner guard's to say (app/owner/site-names.server.ts).
 */
export function requireHostShape(): RequestHandler {
  return (req, res, next) => {
    if (!req.url.startsWith('/')) return refuse(req, res, 400, 'The request target is not a path on this site.')
    if (!hostShape.test(req.headers.host ?? '')) return refuse(req, res, 400, 'The Host header is not a host name.')
    // Behind a trusted proxy the name comes from X-Forwarded-Host, which a proxy may pass on as the visitor sent it.
    if (!hostShape.test(req.hostname)) return refuse(req, res, 400, 'The forwarded host is not a host name.')
    next()
  }
}

/** The path as Remix matches it: each segment percent-decoded (an encoded slash stays inside its segment), any case. */
export function routedPath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replaceAll('/', '%2F')
      } catch {
        return segment
      }
    })
    .join('/')
    .toLowerCase()
}

/**
 * One spelling of the API, so every way to it gets the API's answers in the API's one error
 * shape: runs of slashes are one (`//api/…` reached Remix's pages, and their HTML 404), and
 * `_data` is dropped (it made Remix answer for a page's data, with its own headers and shape).
 */
export function oneWayToTheApi(): RequestHandler {
  return (req, _res, next) => {
    const query = req.url.indexOf('?')
    const path = (query < 0 ? req.url : req.url.slice(0, query)).replace(/\/{2,}/g, '/')
    if (!/^\/api(?:\/|$)/.test(routedPath(path))) return next()
    let search = query < 0 ? '' : req.url.slice(query)
    const params = new URLSearchParams(search)
    if (params.has('_data')) {
      params.delete('_data')
      search = params.size > 0 ? `?${params}` : ''
    }
    // Remix reads the original URL: it is this one from here on.
    req.url = req.originalUrl = `${path}${search}`
    next()
  }
}

/**
 * The last word on any error Express sees: a short text or JSON answer and one log line,
 * never Express's own page with a stack trace and file paths.
 */
export function answerErrors(log: Log): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const status = Number(propertyOf(error, 'status'))
    const clientError = status >= 400 && status < 500
    if (clientError) log.warn({ err: error, status }, 'request refused')
    else log.error({ err: error }, 'request failed')
    if (res.headersSent) return void res.destroy()
    if (clientError) refuse(req, res, status, 'The request could not be read.')
    else refuse(req, res, 500, somethingWentWrong)
  }
}
