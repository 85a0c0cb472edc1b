import type { ImapFlow, ImapFlowOptions } from 'imapflow'
import { textOf } from '#app/outside'

/** The parts of INBOUND_IMAP_URL, or why it cannot be used. */
export function mailboxOf(url: string): {
  host: string
  port: number
  secure: boolean
  user: string
  password: string
  folder: string
} {
  const parsed = new URL(url)
  if (parsed.protocol !== 'imaps:' && parsed.protocol !== 'imap:')
    throw new Error('must start with imaps:// or imap://')
  if (!parsed.hostname) throw new Error('must name the mail server, as imaps://user:password@imap.farm.example/INBOX')
  if (!parsed.username || !parsed.password)
    throw new Error('must hold the user name and password, as imaps://user:password@imap.farm.example/INBOX')
  const secure = parsed.protocol === 'imaps:'
  const folder = decodeURIComponent(parsed.pathname.slice(1)) || 'INBOX'
  if (/[\u0000-\u001f\u007f]/.test(folder)) throw new Error('must name a folder without control characters')
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : secure ? 993 : 143,
    secure,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    folder,
  }
}

/**
 * An IMAP client for the mailbox (imapflow, loaded with the first link: a site without a mailbox
 * never pays for it). On 143 the password goes only after STARTTLS, never in the clear.
 */
export async function clientOf(
  parts: ReturnType<typeof mailboxOf>,
  options: Partial<ImapFlowOptions>,
): Promise<ImapFlow> {
  const { ImapFlow } = await import('imapflow')
  return new ImapFlow({
    host: parts.host,
    port: parts.port,
    secure: parts.secure,
    doSTARTTLS: !parts.secure,
    auth: { user: parts.user, pass: parts.password },
    logger: false,
    greetingTimeout: 10_000,
    ...options,
  })
}

/** The words of a failure without the password, however it was spelled. */
export function withoutSecret(error: unknown, password: string): string {
  const words = error instanceof Error ? (textOf(error, 'responseText') ?? error.message) : String(error)
  const secrets = [password, encodeURIComponent(password)].filter((secret) => secret.length > 0)
  return secrets.reduce((text, secret) => text.split(secret).join('…'), words).slice(0, 500)
}

/**
 * Tries a mailbox's settings (the settings page's test): null when it signs in and opens the
 * folder, read-only; else what failed, and whether it was before signing in or at the folder.
 */
export async function testMailbox(url: string): Promise<{ at: 'server' | 'folder'; error: unknown } | null> {
  const parts = mailboxOf(url)
  const open = await clientOf(parts, { connectionTimeout: 10_000, socketTimeout: 30_000, disableAutoIdle: true })
  open.on('error', () => {})
  let at: 'server' | 'folder' = 'server'
  try {
    await open.connect()
    at = 'folder'
    await open.mailboxOpen(parts.folder, { readOnly: true })
    await open.logout()
    return null
  } catch (error) {
    open.close()
    return { at, error }
  }
}
