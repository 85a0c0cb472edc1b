import type { AppLoadContext } from '@remix-run/node'

const mostPerHour = 100
let hour = { endsAt: 0, recorded: 0 }

/**
 * A refused sign-in, in the activity log: whose account it was tried on (or that the address is
 * not the team's: the words typed are never kept), and from where. Each one against a person of
 * the team is kept; of the rest (addresses not the team's, passkeys not the team's), at most 100
 * an hour, so a stranger's flood cannot grow the log without end, nor hide a real attempt.
 */
export async function recordFailedSignIn(
  context: Pick<AppLoadContext, 'activity' | 'clientAddress' | 'log'>,
  memberId: number | null,
  how: 'password' | 'passkey' = 'password',
) {
  const at = Date.now()
  if (hour.endsAt <= at) hour = { endsAt: at + 60 * 60_000, recorded: 0 }
  if (memberId === null) hour.recorded += 1
  if (memberId === null && hour.recorded > mostPerHour) {
    if (hour.recorded === mostPerHour + 1) {
      context.log.warn(
        {},
        'more than 100 refused sign-ins by strangers this hour: the rest of the hour’s are not in the activity log',
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
