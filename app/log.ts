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
