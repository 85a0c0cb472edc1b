// Any origin does: only whether the path stays on it matters.
const here = 'http://farm.invalid'
// A browser drops these anywhere in a URL before it follows it, so `/\t/evil.example` is `//evil.example`.
const droppedByBrowsers = /[\t\n\r]/g
const otherControlCharacters = /[\u0000-\u001f\u007f]/

/**
 * Where to send the owner after signing in: a path on this site, as the browser will read it.
 * Anything that would leave the site, or that is not a path, goes to the inbox instead.
 */
export function safeRedirect(to: unknown, fallback = '/farm-sales'): string {
  if (typeof to !== 'string') return fallback
  const cleaned = to.replace(droppedByBrowsers, '')
  if (!cleaned.startsWith('/') || otherControlCharacters.test(cleaned)) return fallback
  let url: URL
  try {
    url = new URL(cleaned, here)
  } catch {
    return fallback
  }
  if (url.origin !== here) return fallback
  // Serialised by the URL parser, so only printable ASCII reaches the Location header.
  const path = `${url.pathname}${url.search}${url.hash}`
  // Dot segments can collapse into `//evil.example` (`/.//evil.example`), which a browser
  // reads as another site: what is sent must read back as a path here too.
  return path.startsWith('//') ? fallback : path
}
