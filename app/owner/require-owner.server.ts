import { redirect, type AppLoadContext } from '@remix-run/node'
import type { TeamRole } from '#app/data/enums'
import { jsonError } from '#app/http/json.server'
import type { OwnerPass } from './owner-access.server'

/**
 * What a door asks of whoever knocks: a page sends whoever is not signed in to sign in and back,
 * an API answers 401 in JSON saying what signing in is for (`to`, e.g. "read submissions"). With
 * `role: 'owner'`, a helper is answered 403, saying so; without, anyone of the team comes in.
 */
export type Guard = ({ as: 'page'; to?: string } | { as: 'api'; to: string }) & { role?: TeamRole }

/** The one answer to a person whose role does not open a door: 403, with the role that is missing. */
export function roleRefusal(pass: OwnerPass, guard: Guard) {
  const what = guard.to ?? 'open this page'
  return jsonError(403, `Only an owner may ${what}; you are signed in as a ${pass.who.role}.`)
}

/**
 * The team's guard, said once for every page, API and form that shows or changes the inbox. Open
 * to all while no one of the team can sign in (the open inbox), on the site's own names only
 * (421 on any other, saying what to set).
 */
export async function requireOwner(
  request: Request,
  { owner, siteNames }: Pick<AppLoadContext, 'owner' | 'siteNames'>,
  guard: Guard,
): Promise<OwnerPass> {
  const refusal = siteNames.refusal(siteNames.namesOf(request))
  if (refusal) throw jsonError(421, refusal)
  const pass = await owner.passFor(request.headers.get('Cookie'))
  if (!pass) {
    if (guard.as === 'api') throw jsonError(401, `Sign in as one of the farm’s team to ${guard.to}.`)
    const { pathname, search } = new URL(request.url)
    throw redirect(`/sign-in?redirectTo=${encodeURIComponent(`${pathname}${search}`)}`)
  }
  if (guard.role && pass.who.role !== guard.role) throw roleRefusal(pass, guard)
  return pass
}

/**
 * The guard for sending mail as the farm (replies, saved replies, the acknowledgement's text):
 * only a signed-in person, so never from an open inbox, where no one can write to a visitor. (The
 * acknowledgement itself is the deployer's setting, VISITOR_ACK.) Without anyone able to sign in
 * the refusal (403) says what to set; a caller who is not signed in gets the guard's answer (401,
 * or the sign-in page).
 */
export async function requireSendingOwner(
  request: Request,
  context: Pick<AppLoadContext, 'owner' | 'siteNames'>,
  guard: Guard,
): Promise<OwnerPass & { session: string }> {
  if (!context.owner.required) {
    const what = guard.to ?? 'do this'
    throw jsonError(
      403,
      `Set OWNER_PASSWORD to ${what}: mail goes out as the farm, so only a signed-in person of the team may send it.`,
    )
  }
  const pass = await requireOwner(request, context, guard)
  return { ...pass, session: pass.session ?? '' }
}

/**
 * The guard for what an open inbox must never allow: a copy of everything, a person's data,
 * deleting and forgetting. The team's guard first, for an owner (421, 401 or the sign-in page,
 * 403 for a helper); then only when someone can sign in: without, the refusal (403) says what to set.
 */
export async function requireDataOwner(
  request: Request,
  context: Pick<AppLoadContext, 'owner' | 'siteNames' | 'cannotKeepData'>,
  guard: Guard,
): Promise<OwnerPass> {
  const pass = await requireOwner(request, context, { ...guard, role: 'owner' })
  if (context.cannotKeepData) throw jsonError(403, context.cannotKeepData)
  return pass
}
