import { createHash } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { pagePassFor } from '#app/owner/page-pass.server'
import type { PageVisit } from '#app/owner/site-names.server'
import type { HomePage } from './home-page.server'
import { chosenLanguage } from '#app/language/accept-language.server'
import { languageOfHomePath } from '#app/submissions/home-page.server'
import { brotlied, filled, gzipped, templateOf, type PageTemplate } from './page-template.server'

type Render = (request: Request, context: AppLoadContext) => Promise<Response>

/** A kept page, filled for one answer: written as is, after the same middleware as a rendered one. */
export interface KeptAnswer {
  status: number
  statusText: string
  headers: Array<[string, string]>
  /** Set when the body is already compressed, as the compressor would have for this request. */
  encoding: 'br' | 'gzip' | null
  body: Buffer
}

interface Kept {
  status: number
  statusText: string
  headers: Array<[string, string]>
  page: PageTemplate
}

/** Versions of the page kept at once: one per language, and the one before an edit while it is asked for. */
const mostKept = 8

/** Below this the compressor sends a page as it is (compression's threshold). */
const compressedFrom = 1024

/**
 * The home page rendered once per change of what it shows (decision 043): a visitor's plain
 * GET / is answered from the copy rendered for the same data, with this answer's nonce and form
 * token put in; any other request, or a change of the data, renders as usual.
 */
export function renderedOnce(render: Render) {
  const kept = new Map<string, Kept>()
  const keeping = new Set<string>()
  /** `visit` decides; the Fetch request (dearer to make) is made only to render. */
  return async (visit: PageVisit, context: AppLoadContext, request: () => Request): Promise<Response | KeptAnswer> => {
    const home = await visitorsPlainHome(visit, context)
    if (home === null) return render(request(), context)
    // Each language's page is its own copy.
    const key = `${home} ${keyOf(context.homePage())}`
    const found = kept.get(key)
    if (found) {
      // The most recently asked for is the last to go.
      kept.delete(key)
      kept.set(key, found)
      return answer(found, visit, context)
    }
    const issued: string[] = []
    const { spamTraps } = context
    const issueToken = () => {
      const token = spamTraps.issueToken()
      issued.push(token)
      return token
    }
    const response = await render(request(), { ...context, spamTraps: { ...spamTraps, issueToken } })
    const [token] = issued
    // One copy is made per version: the answers rendered while it is being made are not kept.
    if (issued.length === 1 && token && !keeping.has(key) && mayKeep(response, [context.cspNonce, token])) {
      keeping.add(key)
      void keep(response.clone(), { nonce: context.cspNonce, token }).then(
        (page) => {
          keeping.delete(key)
          if (!page) return
          kept.set(key, page)
          for (const oldest of kept.keys()) if (kept.size > mostKept) kept.delete(oldest)
          // Once per change of the page: tests and the owner's log can tell when it is served kept.
          context.log.info(
            { versions: kept.size, compressed: Boolean(page.page.brotli && page.page.gzip) },
            'kept the home page for visitors',
          )
        },
        (error: unknown) => {
          keeping.delete(key)
          context.log.error({ err: error }, 'could not keep the home page')
        },
      )
    }
    return response
  }
}

/**
 * The home page's address (/, or a language's: /nl/) asked with GET and nothing after it, by
 * someone the page shows nothing of their own (not signed in); null for any other request, and
 * for / when the browser's Accept-Language is sent to another language's address.
 */
async function visitorsPlainHome(request: PageVisit, context: AppLoadContext): Promise<string | null> {
  if (request.method !== 'GET' || request.url.includes('?')) return null
  const { pathname } = new URL(request.url)
  const { languages } = context.farm
  const home =
    pathname === '/'
      ? chosenLanguage(request.headers.get('Accept-Language'), languages) === languages[0]
      : languageOfHomePath(pathname.slice(1), languages) !== null
  if (!home) return null
  return (await pagePassFor(request, context)) === null ? pathname : null
}

// The same page object (read once and kept until a change) is hashed once.
const keys = new WeakMap<HomePage, string>()
function keyOf(page: HomePage) {
  let key = keys.get(page)
  if (key === undefined) keys.set(page, (key = createHash('sha256').update(JSON.stringify(page)).digest('base64url')))
  return key
}

/** Only a page like every visitor's: no cookie, no length or encoding of its own, no nonce or token in a header. */
function mayKeep(response: Response, values: string[]) {
  if (response.status !== 200 || !response.body) return false
  for (const [name, value] of response.headers) {
    if (['set-cookie', 'content-length', 'content-encoding'].includes(name)) return false
    if (values.some((one) => value.includes(one))) return false
  }
  return true
}

async function keep(response: Response, rendered: { nonce: string; token: string }): Promise<Kept | null> {
  const page = await templateOf(await response.text(), rendered)
  if (!page) return null
  return { status: response.status, statusText: response.statusText, headers: [...response.headers], page }
}

function answer(kept: Kept, request: PageVisit, context: AppLoadContext): KeptAnswer {
  const filling = { nonce: context.cspNonce, token: context.spamTraps.issueToken() }
  const { page } = kept
  const compressible =
    page.parts.reduce((sum, part) => sum + part.length, 0) >= compressedFrom &&
    !kept.headers.some(([name, value]) => name === 'cache-control' && value.includes('no-transform'))
  const encoding = compressible ? plainChoice(request.headers.get('Accept-Encoding')) : null
  const brotli = encoding === 'br' && page.brotli ? brotlied({ ...page, brotli: page.brotli }, filling) : null
  const gzip = encoding === 'gzip' && page.gzip ? gzipped({ ...page, gzip: page.gzip }, filling) : null
  const base = { status: kept.status, statusText: kept.statusText, headers: kept.headers }
  if (brotli) return { ...base, encoding: 'br', body: brotli }
  if (gzip) return { ...base, encoding: 'gzip', body: gzip }
  // Any other answer goes through the compressor as a rendered page does.
  return { ...base, encoding: null, body: filled(page, filling) }
}

/**
 * The encoding the compressor (compression 1.8, brotli then gzip preferred) picks for a plain
 * list of names, as browsers send; null for anything with weights or a wildcard, which it then
 * picks itself from the page as written.
 */
export function plainChoice(acceptEncoding: string | null): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null
  const names = acceptEncoding.split(',').map((name) => name.trim().toLowerCase())
  if (names.some((name) => name.includes(';') || name === '*')) return null
  return names.includes('br') ? 'br' : names.includes('gzip') ? 'gzip' : null
}
