import { jsonError } from './json.server'

/**
 * A refusal in words, with the HTTP status the API answers it with, the form's field it is about
 * (when one), and past a limit, when to try again. The one way a service refuses.
 */
export type Refusal = {
  ok: false
  status: 400 | 401 | 403 | 404 | 409 | 410 | 429
  error: string
  field?: string
  retryAfterSeconds?: number
}

/** A service's answer: done, with what it gives, or refused in words. */
export type Answer<T> = ({ ok: true } & T) | Refusal

export const refuse = (status: Refusal['status'], error: string, field?: string): Refusal => ({
  ok: false,
  status,
  error,
  ...(field ? { field } : {}),
})

/** A caller's key for one request (an Idempotency-Key, a form's key): the same key twice is one request. */
export const requestKeyShape = /^[A-Za-z0-9_-]{8,64}$/

/** A refusal as the API answers it, in the one error shape (with Retry-After past the rate limit). */
export function refusalAnswer(refusal: Refusal): Response {
  const wait = refusal.retryAfterSeconds
  return jsonError(refusal.status, refusal.error, wait ? { 'Retry-After': String(wait) } : undefined)
}
