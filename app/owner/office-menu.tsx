import { NavLink } from '@remix-run/react'
import type { TeamRole } from '#app/data/enums'
import { mayPass, type PermissionName } from '#app/owner/permissions'

/** Whoever may read the inbox, as the root's loader tells the menu. */
export interface Office {
  role: TeamRole
  /** False while the inbox is open to anyone: there is no one's own page then. */
  person: boolean
}

const officePages: Array<{ to: string; label: string; permission: PermissionName; end?: boolean }> = [
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

/** The owner's pages this person's role opens. */
export function pagesFor(office: Office) {
  return officePages.filter(
    (page) => mayPass(office.role, page.permission) && (office.person || page.permission !== 'account:own'),
  )
}

/** Whether a path is one of the owner's pages, where the menu shows. */
export const isOfficePath = (pathname: string) => /^\/farm-sales(\/|$)/.test(pathname)

function officeLinkClass({ isActive }: { isActive: boolean }) {
  return [
    'block rounded-full px-3 py-1.5 text-sm font-semibold whitespace-nowrap transition-colors',
    isActive
      ? 'bg-green-100 text-green-950 ring-1 ring-green-700'
      : 'text-stone-700 hover:bg-green-50 hover:text-green-900',
  ].join(' ')
}

/** The owner's menu: the same on every owner page, with the current page marked (in the header, and in the phone's menu). */
export function OfficeMenu({ office, layout }: { office: Office; layout: 'bar' | 'list' }) {
  return (
    <ul className={layout === 'bar' ? 'flex items-center gap-1 overflow-x-auto py-1' : 'grid grid-cols-2 gap-1'}>
      {pagesFor(office).map((page) => (
        <li key={page.to}>
          <NavLink to={page.to} end={page.end} className={officeLinkClass}>
            {page.label}
          </NavLink>
        </li>
      ))}
    </ul>
  )
}
