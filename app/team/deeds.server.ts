import type { AppLoadContext } from '@remix-run/node'
import type { ActivityKind } from '#app/data/enums'
import type { OwnerPass } from '#app/owner/owner-access.server'

/** One of the data's actions, done: in the activity log, by whom and from where; a visitor only by hash. */
export function recordDeed(
  context: Pick<AppLoadContext, 'activity' | 'clientAddress'>,
  pass: OwnerPass,
  kind: ActivityKind,
  detail: string,
  about?: string,
) {
  return context.activity.record({
    kind,
    by: pass.who.id,
    detail,
    address: context.clientAddress,
    ...(about === undefined ? {} : { about }),
  })
}

/** A forgetting in the log's words, the same from the API and the card's form: what went, never who. */
export const forgotWords = (forgotten: { submissions: number; subscription: boolean }) =>
  `Forgot a person: ${forgotten.submissions} submissions${forgotten.subscription ? ' and a subscription' : ''}`
