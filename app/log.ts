/**
 * The one logger every part of the site writes to (the server hands in pino's): each call is
 * one JSON line. Pass an error as `{ err }`; it is logged without the values a failed query
 * carried. Never pass what a visitor typed.
 */
export interface Log {
  info(details: object, message: string): void
  warn(details: object, message: string): void
  error(details: object, message: string): void
  /** The same log with these fields on every line, e.g. `{ part: 'mail' }`. */
  child(bindings: Record<string, unknown>): Log
}

/** A path (or words naming one) that leads to a way in: an invitation's `/join/…`, a claim link's `/set-up/…`. */
const wayIn = /\/(join|set-up)\/[^\s'"?]*/i

/**
 * A request's path, or an error's words that quote one, as the log may keep it: without the token
 * of an invitation or a claim link, a way in for whoever reads the log. Read as the router reads
 * it, percent-escapes and all (`/set%2Dup/…`, `/x/../set-up/…` reach the same page).
 */
export function withoutWaysIn(text: string): string {
  const decoded = text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  if (!wayIn.test(decoded)) return text
  return decoded.replace(new RegExp(wayIn, 'gi'), (_, way: string) => `/${way.toLowerCase()}/…`)
}
