import { domainToUnicode } from 'node:url'
import { asciiDomain } from './mailbox'

/**
 * An address as the site keeps it: the local part as typed, the domain in one form (IDNA's,
 * in lower case, shown in its own letters), so `ann@xn--bcher-kva.example` is kept, found and
 * forgotten as `ann@bücher.example`.
 */
export function keptAddress(address: string): string {
  const at = address.lastIndexOf('@')
  if (at < 0) return address
  const domain = domainToUnicode(asciiDomain(address.slice(at + 1)))
  return domain ? `${address.slice(0, at)}@${domain}` : address
}

/** Both spellings of an address's domain (its own letters and IDNA's ASCII), to find rows kept either way. */
export function spellingsOf(address: string): string[] {
  const at = address.lastIndexOf('@')
  if (at < 0) return [address]
  const ascii = asciiDomain(address.slice(at + 1))
  return [...new Set([keptAddress(address), `${address.slice(0, at)}@${ascii}`])]
}
