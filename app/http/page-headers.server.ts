import type { HeadersFunction } from '@remix-run/node'

/**
 * What a page answers with, beyond its HTML: the headers of a guard's thrown answer (a 405's
 * `Allow`), else those its action set (a 429's `Retry-After`), else its loader's (the inbox's
 * `Cache-Control: no-store`). Remix keeps none of them on a page unless a route says so.
 */
export const pageHeaders: HeadersFunction = ({ errorHeaders, actionHeaders, loaderHeaders }) => {
  if (errorHeaders && [...errorHeaders.keys()].length > 0) return errorHeaders
  return [...actionHeaders.keys()].length > 0 ? actionHeaders : loaderHeaders
}
