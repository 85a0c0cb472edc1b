import { watch } from 'node:fs'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { broadcastDevReady, createRequestHandler, type AppLoadContext, type ServerBuild } from '@remix-run/node'
import { renderedOnce, type KeptAnswer } from '#app/home/rendered-once.server'
import type { PageVisit } from '#app/owner/site-names.server'
import type { Config } from './config'

const buildFile = new URL('../build/index.js', import.meta.url)

async function importBuild(): Promise<ServerBuild> {
  // A fresh query string makes Node load the rebuilt module, not its cache.
  return import(`${buildFile.href}?t=${Date.now()}`)
}

/** The URL as the visitor asked for it (Express's host name and protocol honour TRUST_PROXY). */
function visitUrl(req: ExpressRequest): string {
  // The Host's port (requireHostShape checked its shape); one that is not a port is left out.
  const port = Number(/:(\d{1,5})$/.exec(req.get('Host') ?? '')?.[1])
  // Joined as text: as a base, a path such as `//?index` would be read as another host.
  return `${req.protocol}://${req.hostname}${port > 0 && port < 65536 ? `:${port}` : ''}${req.originalUrl}`
}

/** What the kept home page needs of a request to decide, without making a Fetch request. */
function visitOf(req: ExpressRequest): PageVisit {
  return { method: req.method, url: visitUrl(req), headers: { get: (name) => req.get(name) ?? null } }
}

/**
 * The Fetch request Remix reads: the URL as the visitor asked for it (Express's host name
 * and protocol honour TRUST_PROXY), the body limitBody already read, and a signal that aborts
 * loaders and actions when the visitor goes away before the answer is complete.
 */
function fetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const url = new URL(visitUrl(req))
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one)
  }
  const leaving = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) leaving.abort()
  })
  const body: Buffer | undefined = res.locals.body
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? new Uint8Array(body ?? []) : null,
    signal: leaving.signal,
  })
}

/**
 * Writes Remix's answer chunk by chunk, as fast as the visitor reads it and no faster: while
 * the connection's buffer is full it waits for it to drain, and between chunks it lets other
 * requests run. (Remix's own adapter writes every chunk at once, so one export of the whole
 * inbox could hold the event loop and buffer the whole file for a visitor who stops reading.)
 */
/** How long a download may take nothing before it is cut. */
const stalledMs = 60_000

async function sendResponse(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText
  res.status(response.status)
  for (const [name, value] of response.headers) res.append(name, value)
  if (!response.body) return void res.end()
  const reader = response.body.getReader()
  if (res.destroyed) return void (await reader.cancel())
  // One listener each for the whole answer, waking whichever wait is current.
  let wake = () => {}
  const wakeUp = () => wake()
  res.on('drain', wakeUp)
  res.on('close', wakeUp)
  /** Whether the socket drained (or closed) before the download counts as stalled. */
  const drained = () =>
    new Promise<boolean>((resolve) => {
      const stalled = setTimeout(() => resolve(false), stalledMs)
      wake = () => {
        clearTimeout(stalled)
        resolve(true)
      }
    })
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return void res.end()
      if (res.destroyed) return void (await reader.cancel())
      const roomForMore = res.write(value)
      // The compressor passes each flush on, so a streamed page still arrives in pieces.
      ;(res as ExpressResponse & { flush?: () => void }).flush?.()
      if (roomForMore) await nextTurn()
      // A download nobody reads (a sleeping laptop) gives back what it holds.
      else if (!(await drained())) res.destroy()
      if (res.destroyed) return void (await reader.cancel())
    }
  } catch (error) {
    await reader.cancel().catch(() => {})
    res.destroy(error instanceof Error ? error : new Error(String(error)))
  } finally {
    res.off('drain', wakeUp)
    res.off('close', wakeUp)
  }
}

/**
 * Serves the Remix build. In development the build is imported again after
 * every rebuild, so the process (and every open WebSocket) stays up.
 */
export async function createRemixHandler(
  mode: Config['mode'],
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext,
): Promise<RequestHandler> {
  let build = await importBuild()
  if (mode === 'development') {
    let pending: NodeJS.Timeout | undefined
    watch(new URL('.', buildFile), () => {
      clearTimeout(pending)
      pending = setTimeout(async () => {
        build = await importBuild()
        await broadcastDevReady(build)
      }, 100)
    })
    await broadcastDevReady(build)
  }
  // Given a function, Remix derives its route table again on every request; in production the
  // build never changes, so it gets the build itself and derives once.
  const render = createRequestHandler(mode === 'development' ? async () => build : build, mode)
  // In development the build changes under the running server: every page is rendered anew.
  const handle: ReturnType<typeof renderedOnce> =
    mode === 'development' ? (_visit, context, request) => render(request(), context) : renderedOnce(render)
  return async (req, res, next) => {
    try {
      const answer = await handle(visitOf(req), getLoadContext(req, res), () => fetchRequest(req, res))
      if (answer instanceof Response) await sendResponse(res, answer)
      else sendKept(res, answer)
    } catch (error) {
      next(error)
    }
  }
}

/** A kept home page, with the headers a rendered one gets, in the same order and spelling. */
function sendKept(res: ExpressResponse, answer: KeptAnswer) {
  res.statusMessage = answer.statusText
  res.status(answer.status)
  for (const [name, value] of answer.headers) res.append(name, value)
  // As the compressor marks what it compressed; it then leaves the body as it is.
  if (answer.encoding) {
    res.vary('Accept-Encoding')
    res.setHeader('Content-Encoding', answer.encoding)
  }
  res.end(answer.body)
}
