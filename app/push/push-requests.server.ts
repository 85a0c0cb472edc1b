import type { AppLoadContext } from '@remix-run/node'
import { jsonError } from '#app/http/json.server'
import { requireOwner } from '#app/owner/require-owner.server'
import type { Push } from './push.server'

/** What the push API reaches (built once in server/services.ts): the phones, and the hosts they may be on. */
export type OwnerPhones = Pick<Push, 'subscribe' | 'unsubscribe'> & { publicKey: string; hosts: string[] }

/**
 * The guard for the owner's phones: without OWNER_PASSWORD a 403 saying what to set (an open
 * inbox must not let a stranger subscribe to its leads); then the owner guard (401 when not signed in).
 */
export async function requirePushOwner(
  request: Request,
  context: Pick<AppLoadContext, 'owner' | 'siteNames' | 'push' | 'cannotPush'>,
  to: string,
): Promise<{ phones: OwnerPhones; memberId: number }> {
  if (context.cannotPush || !context.push) throw jsonError(403, context.cannotPush ?? 'Notifications are off.')
  const { who } = await requireOwner(request, context, { as: 'api', to })
  // Someone can sign in (else cannotPush), so whoever passed is a person of the team.
  return { phones: context.push, memberId: who.id! }
}
