import type { AppLoadContext } from '@remix-run/node'

const mostPerHour = 100
// Per account tried (null: an address or passkey not the team's), this hour.
let hour = { endsAt: 0, recorded: new Map<number | null, number>() }

/**
 * A refused sign-in, in the activity log: whose account it was tried on (or that the address is
 * not the team's: the words typed are never kept), and from where. At most 100 an hour per account
 * (and 100 for all strangers' addresses together), so a flood cannot grow the log without end;
 * past it, said once in the log. The limits on trying stop far sooner.
 */
export async function recordFailedSignIn(
  context: Pick<AppLoadContext, 'activity' | 'clientAddress' | 'log'>,
  memberId: number | null,
  how: 'password' | 'passkey' = 'password',
) {
  const at = Date.now()
  if (hour.endsAt <= at) hour = { endsAt: at + 60 * 60_000, recorded: new Map() }
  const recorded = (hour.recorded.get(memberId) ?? 0) + 1
  hour.recorded.set(memberId, recorded)
  if (recorded > mostPerHour) {
    if (recorded === mostPerHour + 1) {
      context.log.warn(
        { account: memberId },
        'more than 100 refused sign-ins this hour: the rest of the hour’s are not in the activity log',
      )
    }
    return
  }
  await context.activity.record({
    kind: 'sign-in-failed',
    // The account tried, as its entry names it: no one signed in did this.
    by: memberId,
    detail:
      how === 'passkey'
        ? 'A passkey the team does not have, or one that did not sign'
        : memberId === null
          ? 'A wrong password for an address not on the team'
          : 'A wrong password',
    address: context.clientAddress,
  })
}
