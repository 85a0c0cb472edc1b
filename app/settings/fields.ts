/**
 * What the settings page shows, section by section: each field is named by the environment
 * variable that sets it (the mail server's parts by SMTP_*, which SMTP_URL sets all at once),
 * so the page, the API and the README speak of one thing by one name.
 */
export type FieldKind = 'text' | 'long-text' | 'whole-number' | 'yes-no' | 'choice' | 'secret'

export interface Field {
  key: string
  label: string
  kind: FieldKind
  hint?: string
  choices?: Array<{ value: string; label: string }>
  /** The environment variable that, when set, locks this field; its own name unless another sets it. */
  lockedBy?: string
}

export interface Section {
  id: string
  title: string
  says: string
  fields: Field[]
}

export const mailSecurity = [
  { value: 'starttls', label: 'STARTTLS (port 587)' },
  { value: 'tls', label: 'TLS (port 465)' },
  { value: 'offered', label: 'As the server offers (a local relay)' },
]

export const mailboxSecurity = [
  { value: 'tls', label: 'TLS (port 993)' },
  { value: 'starttls', label: 'STARTTLS (port 143)' },
]

export const sections: Section[] = [
  {
    id: 'farm',
    title: 'The farm',
    says: 'How the site names the farm, what it sells, and where visitors find it.',
    fields: [
      { key: 'FARM_NAME', label: 'Farm name', kind: 'text' },
      { key: 'FARM_PRODUCT', label: 'What the farm sells, in a few words', kind: 'text' },
      {
        key: 'FARM_PRODUCTS',
        label: 'Products the inbox looks for',
        kind: 'long-text',
        hint: 'Comma-separated, or one per line; other names after "=", parted by "|", e.g. "asparagus=sparrowgrass|spears".',
      },
      {
        key: 'PUBLIC_URL',
        label: 'The site’s public address',
        kind: 'text',
        hint: 'Such as https://farm.example. Links in mails (confirm, unsubscribe, a lead) start with it.',
      },
    ],
  },
  {
    id: 'mail',
    title: 'Mail',
    says: 'The mail server the site sends through: your mail about leads, your answers, and updates.',
    fields: [
      { key: 'SMTP_HOST', label: 'Mail server', kind: 'text', hint: 'Such as smtp.farm.example', lockedBy: 'SMTP_URL' },
      { key: 'SMTP_PORT', label: 'Port', kind: 'whole-number', lockedBy: 'SMTP_URL' },
      { key: 'SMTP_SECURITY', label: 'Security', kind: 'choice', choices: mailSecurity, lockedBy: 'SMTP_URL' },
      { key: 'SMTP_USER', label: 'User name', kind: 'text', lockedBy: 'SMTP_URL' },
      { key: 'SMTP_PASSWORD', label: 'Password', kind: 'secret', lockedBy: 'SMTP_URL' },
      {
        key: 'NOTIFY_EMAIL',
        label: 'Your addresses',
        kind: 'text',
        hint: 'Where the site mails you about leads; several comma-separated. Answers from visitors come back to the first.',
      },
      {
        key: 'NOTIFY_FROM',
        label: 'From',
        kind: 'text',
        hint: 'The address mail is sent from, with a name if you like: Willow Creek Farm <farm@farm.example>. Your first address when empty; visitors see the farm’s name beside it.',
      },
      {
        key: 'DKIM_SELECTOR',
        label: 'DKIM selector',
        kind: 'text',
        hint: 'The name the signing key is published under in the From domain’s DNS, as {selector}._domainkey.',
      },
    ],
  },
  {
    id: 'mailbox',
    title: 'Mail that comes back',
    says: 'The farm’s mailbox that visitors’ answers and bounces reach (IMAP): answers join their cards, bounces and spam reports stop mail to that address. Mail not about the site’s own is never touched.',
    fields: [
      {
        key: 'IMAP_HOST',
        label: 'Mailbox server',
        kind: 'text',
        hint: 'Such as imap.farm.example',
        lockedBy: 'INBOUND_IMAP_URL',
      },
      { key: 'IMAP_PORT', label: 'Port', kind: 'whole-number', lockedBy: 'INBOUND_IMAP_URL' },
      {
        key: 'IMAP_SECURITY',
        label: 'Security',
        kind: 'choice',
        choices: mailboxSecurity,
        lockedBy: 'INBOUND_IMAP_URL',
      },
      { key: 'IMAP_USER', label: 'User name', kind: 'text', lockedBy: 'INBOUND_IMAP_URL' },
      {
        key: 'IMAP_PASSWORD',
        label: 'Password',
        kind: 'secret',
        hint: 'For your own mailbox, an app password made for the site.',
        lockedBy: 'INBOUND_IMAP_URL',
      },
      { key: 'IMAP_FOLDER', label: 'Folder', kind: 'text', lockedBy: 'INBOUND_IMAP_URL' },
      {
        key: 'INBOUND_MOVE_TO',
        label: 'Move what the site handled to',
        kind: 'text',
        hint: 'A folder name, such as Farm site; empty leaves every message where it is.',
      },
    ],
  },
  {
    id: 'notifications',
    title: 'Notifications',
    says: 'When many leads come at once, one digest mail instead of one each.',
    fields: [
      {
        key: 'NOTIFY_DIGEST_AFTER',
        label: 'Digest after this many mails',
        kind: 'whole-number',
        hint: 'In one window; 0 sends only digests.',
      },
      { key: 'NOTIFY_DIGEST_SECONDS', label: 'Digest window, in seconds', kind: 'whole-number' },
    ],
  },
  {
    id: 'visitors',
    title: 'Visitors',
    says: 'The mail a visitor gets when their message is kept (never for spam).',
    fields: [{ key: 'VISITOR_ACK', label: 'Acknowledge each message by mail', kind: 'yes-no' }],
  },
  {
    id: 'updates',
    title: 'Updates and offers',
    says: 'Mail to the people who confirmed they want it, each with a one-click unsubscribe.',
    fields: [
      { key: 'UPDATES', label: 'Offer updates to visitors', kind: 'yes-no' },
      { key: 'UPDATES_PER_MINUTE', label: 'Update mails per minute, at most', kind: 'whole-number' },
    ],
  },
  {
    id: 'phone',
    title: 'Phone',
    says: 'Push services ask for a contact before they carry notifications to your phone.',
    fields: [
      {
        key: 'VAPID_SUBJECT',
        label: 'Contact for push services',
        kind: 'text',
        hint: 'mailto: and an address, or an https address; your first address when empty.',
      },
    ],
  },
  {
    id: 'webhook',
    title: 'Webhook',
    says: 'Each lead posted to another tool (n8n, Zapier), signed so it can tell the post is the farm’s.',
    fields: [
      { key: 'WEBHOOK_URL', label: 'Address', kind: 'text', hint: 'Such as https://n8n.farm.example/webhook/leads' },
      {
        key: 'WEBHOOK_SECRET',
        label: 'Signing secret',
        kind: 'secret',
        hint: '"whsec_" and a key in base64, e.g. whsec_ and the output of `openssl rand -base64 32`.',
      },
      { key: 'WEBHOOK_INCLUDE_SPAM', label: 'Post suspected spam too', kind: 'yes-no' },
    ],
  },
  {
    id: 'backups',
    title: 'Backups',
    says: 'Copies of the database, checked, beside it on the same volume.',
    fields: [
      { key: 'BACKUP_EVERY_MINUTES', label: 'A backup every, in minutes', kind: 'whole-number' },
      { key: 'BACKUP_KEEP', label: 'Backups to keep', kind: 'whole-number' },
    ],
  },
  {
    id: 'retention',
    title: 'Retention',
    says: 'How long what is done with stays, in days.',
    fields: [
      { key: 'SPAM_RETENTION_DAYS', label: 'Suspected spam, days', kind: 'whole-number' },
      {
        key: 'HANDLED_RETENTION_DAYS',
        label: 'Handled messages, days',
        kind: 'whole-number',
        hint: 'Empty keeps them for good.',
      },
      { key: 'ACTIVITY_DAYS', label: 'The activity log, days', kind: 'whole-number' },
    ],
  },
]

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
