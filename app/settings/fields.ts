/**
 * What the settings page shows, section by section: each field is named by the environment
 * variable that sets it (the mail server's parts by SMTP_*, which SMTP_URL sets all at once),
 * so the page, the API and the README speak of one thing by one name. The fields themselves are
 * the settings' declarations (declared.ts).
 */
import { settings, type SettingKind } from './declared'

export type FieldKind = SettingKind

export interface Field {
  key: string
  label: string
  kind: FieldKind
  hint?: string
  choices?: ReadonlyArray<{ value: string; label: string }>
  /** The environment variable that, when set, locks this field; its own name unless another sets it. */
  lockedBy?: string
}

export interface Section {
  id: string
  title: string
  says: string
  fields: Field[]
}

const shown: Array<Omit<Section, 'fields'>> = [
  { id: 'farm', title: 'The farm', says: 'How the site names the farm, what it sells, and where visitors find it.' },
  {
    id: 'mail',
    title: 'Mail',
    says: 'The mail server the site sends through: your mail about leads, your answers, and updates.',
  },
  {
    id: 'mailbox',
    title: 'Mail that comes back',
    says: 'The farm’s mailbox that visitors’ answers and bounces reach (IMAP): answers join their cards, bounces and spam reports stop mail to that address. Mail not about the site’s own is never touched.',
  },
  {
    id: 'notifications',
    title: 'Notifications',
    says: 'When many leads come at once, one digest mail instead of one each.',
  },
  { id: 'visitors', title: 'Visitors', says: 'The mail a visitor gets when their message is kept (never for spam).' },
  {
    id: 'updates',
    title: 'Updates and offers',
    says: 'Mail to the people who confirmed they want it, each with a one-click unsubscribe.',
  },
  {
    id: 'phone',
    title: 'Phone',
    says: 'Push services ask for a contact before they carry notifications to your phone.',
  },
  {
    id: 'webhook',
    title: 'Webhook',
    says: 'Each lead posted to another tool (n8n, Zapier), signed so it can tell the post is the farm’s.',
  },
  {
    id: 'backups',
    title: 'Backups',
    says: 'Copies of the database, checked, beside it on the same volume; and, with a bucket set, each copied off the machine, sealed here first with a key only you keep.',
  },
  { id: 'retention', title: 'Retention', says: 'How long what is done with stays, in days.' },
]

export const sections: Section[] = shown.map((section) => ({
  ...section,
  fields: settings
    .filter((setting) => setting.section === section.id)
    .map(({ key, label, kind, hint, choices, lockedBy }) => ({
      key,
      label: label ?? key,
      kind,
      ...(hint ? { hint } : {}),
      ...(choices ? { choices } : {}),
      ...(lockedBy ? { lockedBy } : {}),
    })),
}))

export const fields: Field[] = sections.flatMap((section) => section.fields)

export const fieldOf = (key: string): Field | undefined => fields.find((field) => field.key === key)

export const sectionOf = (id: string): Section | undefined => sections.find((section) => section.id === id)

/** Where a field's value comes from. */
export type Source = 'default' | 'settings page' | 'environment'

/** One field as the page and the API show it: a secret only as set or not. */
export interface FieldState {
  key: string
  value: string | null
  set: boolean
  source: Source
  /** The environment variable that set it, when it is locked. */
  lockedBy: string | null
}
