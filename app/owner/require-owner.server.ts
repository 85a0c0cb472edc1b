import { redirect, type AppLoadContext } from '@remix-run/node'
import { jsonError } from '#app/http/json.server'
import type { OwnerPass } from './owner-access.server'

/**
 * The owner guard, said once for every page and API that shows or changes the inbox. A page
 * sends whoever is not signed in to sign in and back; an API answers 401 in JSON, saying
 * what signing in is for (e.g. "read submissions"). Open to all when OWNER_PASSWORD is unset.
 */
export async function requireOwner(
  request: Request,
  { owner }: Pick<AppLoadContext, 'owner'>,
  guard: { as: 'page' } | { as: 'api'; to: string },
): Promise<OwnerPass> {
  const pass = await owner.passFor(request.headers.get('Cookie'))
  if (pass) return pass
  if (guard.as === 'api') throw jsonError(401, `Sign in as the farm owner to ${guard.to}.`)
  const { pathname, search } = new URL(request.url)
  throw redirect(`/sign-in?redirectTo=${encodeURIComponent(`${pathname}${search}`)}`)
}
