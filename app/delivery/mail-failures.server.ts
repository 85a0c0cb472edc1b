import { propertyOf, textOf } from '#app/outside'
import { serverWords } from './smtp-refusals.server'

/** The farm's mailbox's two halves: sending through SMTP, and reading over IMAP. */
export type Half = 'sending' | 'reading'

/** What a provider says of the password it takes, and where it is made (app/settings/mail-providers.ts). */
export interface PasswordHelp {
  password: string
  link: { href: string; words: string } | null
}

/** The part of the form a failure points at. */
export type FailedPart = 'host' | 'port' | 'security' | 'password' | 'folder' | 'from'

export interface MailFailure {
  words: string
  part: FailedPart
  /** Where the password the provider needs is made, when the password was refused. */
  link: { href: string; words: string } | null
}

/** Each half's ports: the one that starts with TLS, and the one that starts plain and asks for STARTTLS. */
const ports = { sending: { tls: 465, starttls: 587 }, reading: { tls: 993, starttls: 143 } } as const

/** What the error says of itself: its code, its cause's, and its words, for the checks below. */
function traitsOf(error: unknown) {
  const cause = propertyOf(error, 'cause')
  const codes = [textOf(error, 'code'), textOf(cause, 'code'), textOf(error, 'serverResponseCode')].filter(Boolean)
  const words = [
    error instanceof Error ? error.message : String(error),
    textOf(error, 'response'),
    textOf(error, 'responseText'),
  ].join(' ')
  return { codes, words, has: (pattern: RegExp) => codes.some((code) => pattern.test(code!)) || pattern.test(words) }
}

/** Why a certificate was not trusted, in a few words. */
function certificateTrouble(has: (pattern: RegExp) => boolean): string | null {
  if (has(/CERT_HAS_EXPIRED|certificate has expired/i)) return 'its certificate has expired'
  if (has(/ALTNAME|does not match certificate/i)) return 'its certificate is made out to another name'
  if (has(/SELF_SIGNED|self[- ]signed/i)) return 'its certificate is self-signed'
  if (has(/CERT|certificate|UNABLE_TO_VERIFY|ISSUER/i)) return 'no authority the site knows signed its certificate'
  return null
}

function passwordRefused(error: unknown, half: Half, has: (pattern: RegExp) => boolean) {
  if (half === 'reading') {
    return propertyOf(error, 'authenticationFailed') === true || has(/AUTHENTICATIONFAILED|authenticat|credentials/i)
  }
  const code = propertyOf(error, 'responseCode')
  return has(/^EAUTH$/) || code === 535 || code === 534
}

/**
 * A mail server's failure as the owner reads it: what went wrong, at which server and port, and
 * what to check, never a bare ECONNREFUSED; the provider's own words when it refused the password.
 * `secret` is cut from anything the server repeated.
 */
export function mailFailure(
  error: unknown,
  {
    half,
    host,
    port,
    provider = null,
    secret,
  }: { half: Half; host: string; port: number; provider?: PasswordHelp | null; secret: string },
): MailFailure {
  const { has } = traitsOf(error)
  const at = `${host}, port ${port}`
  const { tls, starttls } = ports[half]
  const failure = (part: FailedPart, words: string, link: MailFailure['link'] = null) => ({ part, words, link })
  if (passwordRefused(error, half, has)) {
    return provider
      ? failure('password', `The server refused the password: ${provider.password}`, provider.link)
      : failure(
          'password',
          'The server refused the user name or password: check both; many providers need an app password made for the site.',
        )
  }
  if (has(/ECONNREFUSED/)) return failure('port', `Nothing answered at ${at}: check the server’s name and port.`)
  if (has(/ENOTFOUND/)) return failure('host', `There is no server called ${host}: check its name.`)
  if (has(/EAI_AGAIN/)) {
    return failure('host', `${host} could not be looked up: check its name, and that the site can reach the internet.`)
  }
  if (has(/WRONG_VERSION_NUMBER|wrong version number|packet length too long|unknown protocol/i)) {
    return failure('security', `${at} does not start with TLS: choose STARTTLS for it, or TLS with port ${tls}.`)
  }
  const certificate = certificateTrouble(has)
  if (certificate) return failure('host', `${host} cannot be trusted: ${certificate}. Check the server’s name.`)
  if (has(/STARTTLS/i)) {
    return failure(
      'security',
      `${at} offers no STARTTLS, and the password is never sent unprotected: choose TLS with port ${tls}.`,
    )
  }
  if (has(/ETIMEDOUT|ETIMEOUT|TIMEOUT|timed out|Greeting never received/i)) {
    return failure(
      'port',
      `${at} did not answer in time: check the port, and that the security fits it (TLS for ${tls}, STARTTLS for ${starttls}).`,
    )
  }
  if (has(/ECONNRESET|EPIPE|closed|hang up/i))
    return failure('port', `${at} closed the connection: check the port and security.`)
  const said = cutOut(serverWords(error), secret)
  if (half === 'sending' && typeof propertyOf(error, 'responseCode') === 'number') {
    return failure('from', `The mail server refused the test mail: ${said}`)
  }
  return failure('host', `${at} could not be used: ${said}`)
}

/** A folder the mailbox has not got, once signed in. */
export const folderFailure = (folder: string): MailFailure => ({
  part: 'folder',
  words: `There is no folder called ${folder} in the mailbox: check its name (INBOX is where new mail arrives).`,
  link: null,
})

/** Words with a secret cut out, however the server chose to repeat it. */
export function cutOut(words: string, secret: string): string {
  if (!secret) return words
  return [secret, encodeURIComponent(secret)].reduce((said, form) => said.split(form).join('•••'), words)
}
