/**
 * A server the page sets in parts (host, port, security, user, password…) and the environment in
 * one URL, which then sets them all: the mail server the site sends through (SMTP_URL), and the
 * farm's mailbox it reads (INBOUND_IMAP_URL).
 */
export interface ServerInParts {
  url: string
  host: string
  password: string
  parts: string[]
  defaultSecurity: string
  /** Each way of securing the connection's usual port. */
  portFor: (security: string | undefined) => string
  /** The URL the parts make, as the environment would say it; '' without a host. */
  urlOf: (parts: Record<string, string | undefined>) => string
  /** What the URL set in the environment says of each part the page shows (never its password). */
  partsOf: (url: URL) => Record<string, string | null>
}

const loginOf = (user: string, password: string) =>
  user ? `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@` : ''

export const servers: ServerInParts[] = [
  {
    url: 'SMTP_URL',
    host: 'SMTP_HOST',
    password: 'SMTP_PASSWORD',
    parts: ['SMTP_HOST', 'SMTP_PORT', 'SMTP_SECURITY', 'SMTP_USER', 'SMTP_PASSWORD'],
    defaultSecurity: 'starttls',
    portFor: (security) => ((security || 'starttls') === 'tls' ? '465' : '587'),
    urlOf: (parts) => smtpUrlOf(parts),
    partsOf: (url) => ({
      SMTP_HOST: url.hostname,
      SMTP_PORT: url.port || (url.protocol === 'smtps:' ? '465' : '587'),
      SMTP_SECURITY:
        url.protocol === 'smtps:' ? 'tls' : url.searchParams.get('requireTLS') === 'true' ? 'starttls' : 'offered',
      SMTP_USER: decodedPart(url.username),
      SMTP_PASSWORD: null,
    }),
  },
  {
    url: 'INBOUND_IMAP_URL',
    host: 'IMAP_HOST',
    password: 'IMAP_PASSWORD',
    parts: ['IMAP_HOST', 'IMAP_PORT', 'IMAP_SECURITY', 'IMAP_USER', 'IMAP_PASSWORD', 'IMAP_FOLDER'],
    defaultSecurity: 'tls',
    portFor: (security) => ((security || 'tls') === 'tls' ? '993' : '143'),
    urlOf: (parts) => {
      const host = parts.IMAP_HOST ?? ''
      if (!host) return ''
      const security = parts.IMAP_SECURITY || 'tls'
      const port = parts.IMAP_PORT || (security === 'tls' ? '993' : '143')
      const folder = encodeURIComponent(parts.IMAP_FOLDER || 'INBOX')
      const login = loginOf(parts.IMAP_USER ?? '', parts.IMAP_PASSWORD ?? '')
      return `${security === 'tls' ? 'imaps' : 'imap'}://${login}${host}:${port}/${folder}`
    },
    partsOf: (url) => ({
      IMAP_HOST: url.hostname,
      IMAP_PORT: url.port || (url.protocol === 'imaps:' ? '993' : '143'),
      IMAP_SECURITY: url.protocol === 'imaps:' ? 'tls' : 'starttls',
      IMAP_USER: decodedPart(url.username),
      IMAP_PASSWORD: null,
      IMAP_FOLDER: decodedPart(url.pathname.slice(1)) || 'INBOX',
    }),
  },
]
export const serverOfPart = (key: string) => servers.find((server) => server.parts.includes(key))
export const isServerPart = (key: string) => serverOfPart(key) !== undefined

export const hostName =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i

/** A part of a URL as written, decoded when it can be (a stray `%` stays as it is). */
export function decodedPart(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

/** smtp:// or smtps:// from the page's parts, as SMTP_URL would say it; '' without a host. */
export function smtpUrlOf(parts: Record<string, string | undefined>): string {
  const host = parts.SMTP_HOST ?? ''
  if (!host) return ''
  const security = parts.SMTP_SECURITY || 'starttls'
  const port = parts.SMTP_PORT || (security === 'tls' ? '465' : '587')
  const scheme = security === 'tls' ? 'smtps' : 'smtp'
  const login = loginOf(parts.SMTP_USER ?? '', parts.SMTP_PASSWORD ?? '')
  return `${scheme}://${login}${host}:${port}${security === 'starttls' ? '?requireTLS=true' : ''}`
}

/**
 * Which secret goes with which address: a secret kept for one server or endpoint is never sent to
 * another, so changing where it goes means typing it again.
 */
export const secretsAndWhereTheyGo = [
  { secret: 'SMTP_PASSWORD', where: ['SMTP_HOST', 'SMTP_PORT', 'SMTP_SECURITY', 'SMTP_USER'] },
  { secret: 'IMAP_PASSWORD', where: ['IMAP_HOST', 'IMAP_PORT', 'IMAP_SECURITY', 'IMAP_USER'] },
  { secret: 'WEBHOOK_SECRET', where: ['WEBHOOK_URL'] },
  { secret: 'BACKUP_BUCKET_SECRET', where: ['BACKUP_BUCKET_ENDPOINT', 'BACKUP_BUCKET_ACCESS_KEY'] },
]
