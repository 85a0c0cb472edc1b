import { createFirstOwner } from './first-owner.server'
import { createInvitations } from './invitations.server'
import { createJoining } from './joining.server'
import type { TeamNeeds } from './on-the-team.server'
import { createOwnPage } from './own-page.server'
import { createRoster } from './roster.server'
import { createTeamChanges } from './team-changes.server'

export { invitationDays } from './invitations.server'

/** Who is on the farm’s team, and what only an owner changes about them: the team page's and the API's one door. */
export function createTeam({ now = Date.now, ...needs }: Omit<TeamNeeds, 'now'> & { now?: () => number }) {
  const parts: TeamNeeds = { ...needs, now }
  return {
    ...createRoster(parts),
    ...createOwnPage(parts),
    ...createInvitations(parts),
    ...createJoining(parts),
    ...createTeamChanges(parts),
    ...createFirstOwner(parts),
  }
}

export type Team = ReturnType<typeof createTeam>
