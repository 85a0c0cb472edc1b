import { hasAddressShape } from '#app/leads/mailbox'

/** The longest address a mail server takes (RFC 5321's path limit). */
const longestAddress = 254

/** The one `email` a request about a person names, or why it is not one. */
export function readPersonAddress(params: URLSearchParams): { ok: true; email: string } | { ok: false; error: string } {
  const given = params.getAll('email')
  if (given.length !== 1) return { ok: false, error: 'Name one person by their address: ?email=name@example.com.' }
  const email = given[0]!.trim()
  if (email.length > longestAddress || !hasAddressShape(email)) {
    return { ok: false, error: 'That is not an email address.' }
  }
  return { ok: true, email }
}
