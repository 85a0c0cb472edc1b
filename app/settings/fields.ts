/**
 * What the settings page shows, section by section, in the farm's words: each field is named by
 * the environment variable that sets it (the mail server's parts by SMTP_*, which SMTP_URL sets
 * all at once), so the page, the API and the README speak of one thing by one name, though the
 * page never shows those names but for a field the environment locks. The fields themselves are
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
  /** The heading it is shown under within its section. */
  group?: string
  /** The field it follows on the page (one user name and password for both halves of the mailbox). */
  sameAs?: string
}

export interface Section {
  id: string
  title: string
  says: string
  /** What its Save button says, where 'Save' and the title would mislead ('Save orders' saves no order). */
  saveWords?: string
  /** Folded under Advanced: what a farmer seldom changes. */
  advanced?: boolean
  fields: Field[]
}

const shown: Array<Omit<Section, 'fields'>> = [
  { id: 'farm', title: 'The farm', says: 'How the site names the farm, what it sells, and where visitors find it.' },
  {
    id: 'mail',
    title: 'Mail',
    says: 'The farm’s mailbox: the site sends your mail about leads, your answers and updates from it, and reads the answers and bounces that come back to it.',
  },
  {
    id: 'notifications',
    title: 'Notifications',
    says: 'You are mailed about each lead at your addresses (in Mail); when many come at once, one digest instead.',
  },
  {
    id: 'updates',
    title: 'Updates',
    says: 'What visitors get by mail: a thank-you when their message is kept, and your news for those who ask.',
  },
  {
    id: 'orders',
    title: 'Orders',
    saveWords: 'Save the cut-off and reminders',
    says: 'Orders you confirm from messages are paid at pick-up: until when a visitor may cancel theirs by its link, and whether they are reminded of it.',
  },
  {
    id: 'webhook',
    title: 'Webhook',
    says: 'Each lead posted to another tool (n8n, Zapier), signed so it can tell the post is the farm’s.',
    advanced: true,
  },
  {
    id: 'backups',
    title: 'Backups',
    says: 'Copies of the database, checked, beside it on the same volume; and, with a bucket set, each copied off the machine, sealed here first with a key only you keep.',
    advanced: true,
  },
  {
    id: 'retention',
    title: 'Retention',
    says: 'How long what is done with stays, in days.',
    advanced: true,
  },
  {
    id: 'digest',
    title: 'Digest window',
    says: 'How long leads are counted before the digest mail.',
    advanced: true,
  },
  {
    id: 'dkim',
    title: 'Signing',
    says: 'Mail the site sends is signed (DKIM), so receivers can tell it is the farm’s.',
    advanced: true,
  },
  {
    id: 'phone',
    title: 'Phone',
    says: 'Push services ask for a contact before they carry notifications to your phone.',
    advanced: true,
  },
]

/** The headings fields are grouped under, within a section. */
export const groupTitles: Record<string, string> = {
  account: 'Your mail account',
  sending: 'Sending (SMTP)',
  reading: 'Reading (IMAP)',
}

export const sections: Section[] = shown.map((section) => ({
  ...section,
  fields: settings
    .filter((setting) => setting.section === section.id)
    .map(({ key, label, kind, hint, choices, lockedBy, group, sameAs }) => ({
      key,
      label: label ?? key,
      kind,
      ...(hint ? { hint } : {}),
      ...(choices ? { choices } : {}),
      ...(lockedBy ? { lockedBy } : {}),
      ...(group ? { group } : {}),
      ...(sameAs ? { sameAs } : {}),
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
