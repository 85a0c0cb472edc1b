import { redirect, type AppLoadContext } from '@remix-run/node'
import { jsonError } from '#app/http/json.server'
import type { OwnerPass } from './owner-access.server'

/**
 * The owner guard, said once for every page and API that shows or changes the inbox. A page
 * sends whoever is not signed in to sign in and back; an API answers 401 in JSON, saying
 * what signing in is for (e.g. "read submissions"). Open to all when OWNER_PASSWORD is unset,
 * on the site's own names only (421 on any other, saying what to set).
 */
export async function requireOwner(
  request: Request,
  { owner, siteNames }: Pick<AppLoadContext, 'owner' | 'siteNames'>,
  guard: { as: 'page' } | { as: 'api'; to: string },
): Promise<OwnerPass> {
  const refusal = siteNames.refusal(siteNames.namesOf(request))
  if (refusal) throw jsonError(421, refusal)
  const pass = await owner.passFor(request.headers.get('Cookie'))
  if (pass) return pass
  if (guard.as === 'api') throw jsonError(401, `Sign in as the farm owner to ${guard.to}.`)
  const { pathname, search } = new URL(request.url)
  throw redirect(`/sign-in?redirectTo=${encodeURIComponent(`${pathname}${search}`)}`)
}

/**
 * The guard for sending mail as the farm (replies, saved replies, the acknowledgement's text):
 * only a signed-in owner, so only when OWNER_PASSWORD is set; from an open inbox no one can
 * write to a visitor. (The acknowledgement itself is the deployer's setting, VISITOR_ACK.) Without the password the refusal (403) says what to set; a caller who is not
 * signed in gets the owner guard's answer (401, or the sign-in page).
 */
export async function requireSendingOwner(
  request: Request,
  context: Pick<AppLoadContext, 'owner' | 'siteNames'>,
  guard: { as: 'page' } | { as: 'api'; to: string },
): Promise<OwnerPass & { session: string }> {
  if (!context.owner.required) {
    const what = guard.as === 'api' ? guard.to : 'do this'
    throw jsonError(
      403,
      `Set OWNER_PASSWORD to ${what}: mail goes out as the farm, so only the signed-in owner may send it.`,
    )
  }
  const pass = await requireOwner(request, context, guard)
  return { ...pass, session: pass.session ?? '' }
}

/**
 * The guard for what an open inbox must never allow: a copy of everything, a person's data,
 * deleting and forgetting. The owner guard first (421 on a name not the site's, 401 or the sign-in
 * page); then only a signed-in owner, so only when OWNER_PASSWORD is set: without it the refusal
 * (403) says what to set.
 */
export async function requireDataOwner(
  request: Request,
  context: Pick<AppLoadContext, 'owner' | 'siteNames' | 'cannotKeepData'>,
  guard: { as: 'page' } | { as: 'api'; to: string },
): Promise<OwnerPass> {
  const pass = await requireOwner(request, context, guard)
  if (context.cannotKeepData) throw jsonError(403, context.cannotKeepData)
  return pass
}
