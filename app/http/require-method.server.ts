import { jsonError } from './json.server'

/**
 * The method guard: Remix runs an action for any method but GET and HEAD (PUT, PATCH,
 * DELETE too), so each action says once which it takes. Throws the 405 with `Allow`.
 */
export function requireMethod(request: Request, allow: string[]) {
  if (allow.includes(request.method)) return
  throw jsonError(405, `${request.method} is not allowed here.`, { Allow: allow.join(', ') })
}
