import type { TeamRole } from '#app/data/enums'
import { mayPass, type PermissionName } from '#app/owner/permissions'
import type { OfficePage } from '#app/owner/office-menu'

/** Whoever may read the inbox, as the root's loader knows them. */
export interface OfficeVisitor {
  role: TeamRole
  /** False while the inbox is open to anyone: there is no one's own page then. */
  person: boolean
}

const officePages: Array<OfficePage & { permission: PermissionName }> = [
  { to: '/farm-sales', label: 'Inbox', permission: 'inbox:read', end: true },
  { to: '/farm-sales/pickups', label: 'Pick-ups', permission: 'orders:read' },
  { to: '/farm-sales/this-week', label: 'This week', permission: 'week:change' },
  { to: '/farm-sales/updates', label: 'Updates', permission: 'updates:send' },
  { to: '/farm-sales/page', label: 'The farm’s page', permission: 'farm-page:edit' },
  { to: '/farm-sales/saved-replies', label: 'Saved replies', permission: 'saved-replies:write' },
  { to: '/farm-sales/page/photos', label: 'Photos', permission: 'photos:change' },
  { to: '/farm-sales/insights', label: 'Insights', permission: 'insights:read' },
  { to: '/farm-sales/team', label: 'Team', permission: 'team:change' },
  { to: '/farm-sales/settings', label: 'Settings', permission: 'settings:change' },
  { to: '/farm-sales/me', label: 'Your page', permission: 'account:own' },
  { to: '/farm-sales/activity', label: 'Activity', permission: 'activity:read' },
]

/**
 * The owner's pages this person's role opens, decided here by the one table of permissions: the
 * browser is sent the links, not the table.
 */
export function officePagesFor({ role, person }: OfficeVisitor): OfficePage[] {
  return officePages
    .filter((page) => mayPass(role, page.permission) && (person || page.permission !== 'account:own'))
    .map(({ to, label, end }) => (end ? { to, label, end } : { to, label }))
}
