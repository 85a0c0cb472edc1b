/**
 * The mail providers farmers use, each with the servers the farm's one mailbox form fills in:
 * where the site sends (SMTP) and where it reads (IMAP), their ports and security, and one line
 * saying which password the provider takes and where to make it. 'Another provider' fills
 * nothing. A provider on this machine is added only when the site runs with TEST_MAIL_PROVIDER
 * (the tests' own Postfix and Dovecot): a real owner never sees it.
 */
/** The farm's mailbox's two halves, as the page names them (the failures' words name them alike). */
export type Half = 'sending' | 'reading'

export interface MailProvider {
  id: string
  /** As the list shows it. */
  name: string
  /** As a sentence names it: 'Gmail needs an app password'. */
  shortName: string
  sending: { host: string; port: string; security: string } | null
  reading: { host: string; port: string; security: string } | null
  /** One line: which password the site signs in with, and where to make it. */
  password: string
  /** Where that password is made. */
  link: { href: string; words: string } | null
}

const starttls = (host: string) => ({ host, port: '587', security: 'starttls' })
const tls = (host: string) => ({ host, port: '465', security: 'tls' })
const imaps = (host: string) => ({ host, port: '993', security: 'tls' })

export const mailProviders: MailProvider[] = [
  {
    id: 'gmail',
    name: 'Gmail or Google Workspace',
    shortName: 'Gmail',
    sending: starttls('smtp.gmail.com'),
    reading: imaps('imap.gmail.com'),
    password: 'Gmail needs an app password, made in your Google Account once 2-Step Verification is on.',
    link: { href: 'https://myaccount.google.com/apppasswords', words: 'Make an app password at Google' },
  },
  {
    id: 'outlook',
    name: 'Outlook.com or Hotmail',
    shortName: 'Outlook.com',
    sending: starttls('smtp-mail.outlook.com'),
    reading: imaps('outlook.office365.com'),
    password: 'Outlook.com needs an app password, made in your Microsoft account once two-step verification is on.',
    link: { href: 'https://account.live.com/proofs/AppPassword', words: 'Make an app password at Microsoft' },
  },
  {
    id: 'microsoft365',
    name: 'Microsoft 365 (work or school)',
    shortName: 'Microsoft 365',
    sending: starttls('smtp.office365.com'),
    reading: imaps('outlook.office365.com'),
    password:
      'Microsoft 365 needs an app password, and your administrator must allow this mailbox to send by SMTP AUTH.',
    link: { href: 'https://mysignins.microsoft.com/security-info', words: 'Make an app password at Microsoft' },
  },
  {
    id: 'icloud',
    name: 'iCloud Mail',
    shortName: 'iCloud',
    sending: starttls('smtp.mail.me.com'),
    reading: imaps('imap.mail.me.com'),
    password: 'iCloud needs an app-specific password, made in your Apple Account under Sign-In and Security.',
    link: { href: 'https://account.apple.com/account/manage', words: 'Make one at Apple' },
  },
  {
    id: 'yahoo',
    name: 'Yahoo Mail',
    shortName: 'Yahoo',
    sending: tls('smtp.mail.yahoo.com'),
    reading: imaps('imap.mail.yahoo.com'),
    password: 'Yahoo needs an app password, made in your account’s security settings.',
    link: { href: 'https://login.yahoo.com/myaccount/security/', words: 'Make an app password at Yahoo' },
  },
  {
    id: 'fastmail',
    name: 'Fastmail',
    shortName: 'Fastmail',
    sending: tls('smtp.fastmail.com'),
    reading: imaps('imap.fastmail.com'),
    password: 'Fastmail needs an app password, made under Settings › Privacy & Security.',
    link: { href: 'https://www.fastmail.com/help/clients/apppassword.html', words: 'How to make one at Fastmail' },
  },
  {
    id: 'zoho',
    name: 'Zoho Mail',
    shortName: 'Zoho',
    sending: tls('smtp.zoho.com'),
    reading: imaps('imap.zoho.com'),
    password: 'Zoho needs an app password once two-factor sign-in is on; accounts in Europe use zoho.eu servers.',
    link: { href: 'https://accounts.zoho.com/home#security/app_password', words: 'Make an app password at Zoho' },
  },
  {
    id: 'gmx',
    name: 'GMX',
    shortName: 'GMX',
    sending: starttls('mail.gmx.net'),
    reading: imaps('imap.gmx.net'),
    password: 'GMX takes your own password once POP3/IMAP access is turned on in its mail settings.',
    link: null,
  },
  {
    id: 'webde',
    name: 'WEB.DE',
    shortName: 'WEB.DE',
    sending: starttls('smtp.web.de'),
    reading: imaps('imap.web.de'),
    password: 'WEB.DE takes your own password once POP3/IMAP access is turned on in its mail settings.',
    link: null,
  },
  {
    id: 'ovh',
    name: 'OVHcloud',
    shortName: 'OVHcloud',
    sending: tls('ssl0.ovh.net'),
    reading: imaps('ssl0.ovh.net'),
    password: 'OVHcloud takes the mail account’s own password, set in its Control Panel under Emails.',
    link: null,
  },
  {
    id: 'ionos',
    name: 'IONOS',
    shortName: 'IONOS',
    sending: starttls('smtp.ionos.de'),
    reading: imaps('imap.ionos.de'),
    password:
      'IONOS takes the mailbox’s own password; outside Germany, use your country’s servers (ionos.fr, ionos.co.uk…).',
    link: null,
  },
  {
    id: 'other',
    name: 'Another provider',
    shortName: 'Your provider',
    sending: null,
    reading: null,
    password:
      'Your provider’s help pages name its sending (SMTP) and reading (IMAP) servers, and any app password it needs.',
    link: null,
  },
]

/**
 * The tests' provider on this machine, from TEST_MAIL_PROVIDER's two addresses (the SMTP_URL and
 * INBOUND_IMAP_URL it would be in the environment, without user or password).
 */
export function testProvider(servers: {
  sending: MailProvider['sending']
  reading: MailProvider['reading']
}): MailProvider {
  return {
    id: 'this-machine',
    name: 'The mail server on this machine (tests)',
    shortName: 'The test mail server',
    ...servers,
    password: 'The test mailbox takes its own password.',
    link: null,
  }
}

/** The providers the page offers: the tests' one only when the site runs with it. */
export const providersWith = (test: MailProvider | null): MailProvider[] =>
  test ? [test, ...mailProviders] : mailProviders

/** The provider whose servers these are, if any: by the sending server, else the reading one. */
export function providerOf(
  providers: MailProvider[],
  { sending, reading }: { sending?: string | null; reading?: string | null },
): MailProvider | null {
  const same = (a: string | undefined, b: string | null | undefined) =>
    Boolean(a && b && a.toLowerCase() === b.toLowerCase())
  return (
    providers.find((provider) => same(provider.sending?.host, sending)) ??
    providers.find((provider) => same(provider.reading?.host, reading)) ??
    null
  )
}

/** The fields a provider fills in: both servers, their ports and security. */
export function fieldsOf(provider: MailProvider): Record<string, string> {
  if (!provider.sending || !provider.reading) return {}
  return {
    SMTP_HOST: provider.sending.host,
    SMTP_PORT: provider.sending.port,
    SMTP_SECURITY: provider.sending.security,
    IMAP_HOST: provider.reading.host,
    IMAP_PORT: provider.reading.port,
    IMAP_SECURITY: provider.reading.security,
  }
}
