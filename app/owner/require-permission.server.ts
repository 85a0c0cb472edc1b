import { redirect, type AppLoadContext } from '@remix-run/node'
import { jsonError } from '#app/http/json.server'
import type { OwnerPass } from './owner-access.server'
import { mayPass, permissions, refusedWhileOpen, type Permission, type PermissionName, type SetUp } from './permissions'

/**
 * How a door answers whoever it refuses: a page sends whoever is not signed in to sign in and
 * back, an API answers 401 in JSON saying what signing in is for (`to`, e.g. "read submissions").
 * With `showCannot`, a page shows what is not set up in its own words rather than refusing.
 */
export type Guard = { as: 'page'; to?: string; showCannot?: boolean } | { as: 'api'; to: string }

/** Whoever passed, and (on a page that shows it) what is not set up for this door yet. */
export type Door = OwnerPass & { cannot: string | null }

type Context = Pick<AppLoadContext, 'owner' | 'siteNames' | 'cannotSendUpdates' | 'cannotPush'>

// Each feature says once why it is not set up (null when it is): the desk and the phones exist exactly then.
const notSetUp: Record<SetUp, (context: Context) => string | null> = {
  updates: (context) => context.cannotSendUpdates,
  phones: (context) => context.cannotPush,
}

/**
 * The one guard of every door that shows or changes the farm's data, always in this order: the
 * site's own names (421, saying what to set); someone signed in (401, or the sign-in page), where
 * the open inbox lets anyone in; their role (403, naming it); then what the door needs set up
 * (403, saying what to set).
 */
export async function requirePermission(
  request: Request,
  context: Context,
  permission: PermissionName,
  guard: Guard,
): Promise<Door> {
  const refusal = context.siteNames.refusal(context.siteNames.namesOf(request))
  if (refusal) throw jsonError(421, refusal)
  const pass = await context.owner.passFor(request.headers.get('Cookie'))
  if (!pass) {
    if (guard.as === 'api') throw jsonError(401, `Sign in as one of the farm’s team to ${guard.to}.`)
    const { pathname, search } = new URL(request.url)
    throw redirect(`/sign-in?redirectTo=${encodeURIComponent(`${pathname}${search}`)}`)
  }
  const what = guard.to ?? 'open this page'
  if (!mayPass(pass.who.role, permission)) {
    throw jsonError(403, `Only an owner may ${what}; you are signed in as a ${pass.who.role}.`)
  }
  const { needs }: Permission = permissions[permission]
  const cannot =
    (context.owner.required ? null : refusedWhileOpen(permission, guard.to)) ??
    (needs ? notSetUp[needs](context) : null)
  if (cannot && !(guard.as === 'page' && guard.showCannot)) throw jsonError(403, cannot)
  return { ...pass, cannot }
}
