import type { TeamRole } from '#app/data/enums'

/** What a door needs set up besides the person knocking: each named by its refusal in the load context. */
export type SetUp = 'updates' | 'phones'

export interface Permission {
  /** Who of the team may pass. */
  roles: readonly TeamRole[]
  /**
   * Refused (403) with these words while no one can sign in, where the open inbox lets anyone in:
   * for what must be a person of the team (mail sent as the farm, the settings' secrets, one's own page).
   */
  whileOpen?: (to: string) => string
  /** Refused (403) until it is set up, with the words of what to set. */
  needs?: SetUp
}

const everyone = ['owner', 'helper'] as const
const owners = ['owner'] as const
const keepingData = () =>
  'To download a backup, delete leads, or export or forget a person, claim the site first: an open inbox must never let a stranger take or destroy its data.'

/** The one table of who may do what: every guarded door names one of these (README, 'Who may do what'). */
export const permissions = {
  'inbox:read': { roles: everyone },
  'inbox:work': { roles: everyone },
  'replies:send': {
    roles: everyone,
    whileOpen: (to) =>
      `To ${to}, claim the site first: mail goes out as the farm, so only a signed-in person of the team may send it.`,
  },
  'phone:notify': { roles: everyone, needs: 'phones' },
  'account:own': {
    roles: everyone,
    whileOpen: () => 'No one signs in yet: this page is for a person of the team, once someone has claimed the site.',
  },
  'inbox:export': { roles: owners },
  'data:export': { roles: owners, whileOpen: keepingData },
  'data:erase': { roles: owners, whileOpen: keepingData },
  'insights:read': { roles: owners },
  'activity:read': { roles: owners },
  'updates:send': { roles: owners, needs: 'updates' },
  'week:change': {
    roles: everyone,
    whileOpen: () =>
      'This week’s list is on the farm’s public page: claim the site first, so only a signed-in person of the team changes it.',
  },
  'saved-replies:write': {
    roles: owners,
    whileOpen: () =>
      'Saved replies and the acknowledgement are sent as the farm: claim the site first, and sign in to write them.',
  },
  'settings:change': {
    roles: owners,
    whileOpen: () =>
      'To set the site up from here, claim the site first: the settings hold the mail server’s password, so only a signed-in owner may see or change them.',
  },
  'photos:change': {
    roles: owners,
    whileOpen: () =>
      'To add or change the farm’s photos, claim the site first: they are on the page everyone sees, so only a signed-in owner may change them.',
  },
  'team:change': {
    roles: owners,
    whileOpen: () => 'No one signs in yet: the team starts with whoever claims the site, its first owner.',
  },
  'farm-page:edit': {
    roles: owners,
    whileOpen: () => 'The farm’s page is what every visitor reads: claim the site first, and sign in to write it.',
  },
  'orders:read': { roles: everyone },
  'orders:work': {
    roles: everyone,
    whileOpen: (to) =>
      `To ${to}, claim the site first: confirming or declining an order mails the visitor as the farm, so only a signed-in person of the team may do it.`,
  },
} satisfies Record<string, Permission>

export type PermissionName = keyof typeof permissions

/** What a door that needs this permission says while no one can sign in, or null when it is open then too. */
export function refusedWhileOpen(permission: PermissionName, to = 'do this'): string | null {
  const rule: Permission = permissions[permission]
  return rule.whileOpen ? rule.whileOpen(to) : null
}

/** Whether a person of this role may pass a door that needs this permission. */
export function mayPass(role: TeamRole, permission: PermissionName): boolean {
  return (permissions[permission].roles as readonly TeamRole[]).includes(role)
}
