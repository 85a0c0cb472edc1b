import {
  createReadableStreamFromReadable,
  type AppLoadContext,
  type EntryContext,
  type HandleDataRequestFunction,
  type HandleErrorFunction,
} from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { writtenTogether } from './http/page-stream.server'
import { NonceProvider } from './nonce'
import { StylesheetProvider } from './stylesheet'
import { stylesheetText } from './stylesheet.server'
import { withoutWaysIn } from '#app/log'
import { propertyOf } from '#app/outside'
import { loadMessages } from '#app/language/use-messages'
import { languages } from '#app/language/languages'

const abortDelay = 5_000

// Every page's header speaks its page's language, whichever page the server renders first (an
// owner's page, a confirm link's) and whether or not its loader loaded that language's messages.
await Promise.all(languages.map((language) => loadMessages(language)))

/** A loader, action or render that throws is logged as one JSON line, like everything else. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // A visitor who went away is not an error.
  if (request.signal.aborted) return
  // The router wraps its own errors (e.g. a POST to a page without an action) in an error response.
  const inner = propertyOf(error, 'error')
  const err = !(error instanceof Error) && inner instanceof Error ? inner : error
  context.log.error({ err, path: withoutWaysIn(new URL(request.url).pathname) }, 'request failed')
}

/** Route data is made for one request (the owner's inbox, a form's start time): no cache keeps it. */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set('Cache-Control', 'no-store')
  return response
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce
  // Bots get the whole page at once; people get it streamed as it is ready.
  const readyEvent = isbot(request.headers.get('user-agent')) ? 'onAllReady' : 'onShellReady'
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    // Cleared once the render is done: a pending timer would keep the whole render alive for 5 s.
    const aborting: { timer?: ReturnType<typeof setTimeout> } = {}
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StylesheetProvider value={stylesheetText}>
          <RemixServer context={remixContext} url={request.url} abortDelay={abortDelay} nonce={nonce} />
        </StylesheetProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          clearTimeout(aborting.timer)
          if (readyEvent === 'onAllReady') ready()
        },
        onShellReady() {
          if (readyEvent === 'onShellReady') ready()
        },
        onShellError(error: unknown) {
          clearTimeout(aborting.timer)
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) loadContext.log.error({ err: error }, 'streaming render failed')
        },
      },
    )
    function ready() {
      shellRendered = true
      const body = writtenTogether()
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      )
      pipe(body)
    }
    aborting.timer = setTimeout(abort, abortDelay)
  })
}
