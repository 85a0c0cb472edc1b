// A visitor's address: whether it is one, the mailbox it reaches, and a safe link to it.

// The spec's rule is some text, an at sign, some text, a dot, some text. The text is held to
// what addresses are made of, so none can carry a query (`?cc=…&bcc=…`) into a mailto: link:
// the local part without `?`, `&`, `%` or spaces, the domain made of dot-separated labels.
const localPart = /^[\p{L}\p{N}!#$'*+/=^_`{|}~.-]+$/u
const domainLabel = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u

// Names that never reach a visitor's mailbox: this machine, a local network, or none at all
// (RFC 6761, 6762, 7686, 8375); mail to them would go to the farm's own server or nowhere.
const localNames = new Set(['localhost', 'localdomain', 'local', 'internal', 'invalid', 'arpa', 'onion', 'lan', 'home'])

/**
 * Whether a text is shaped as an address: a local part, an at sign, and a domain of two labels or
 * more. The owner's own addresses (NOTIFY_EMAIL) need only this: they may be on a local network.
 */
export function hasAddressShape(value: string): boolean {
  const at = value.indexOf('@')
  if (at < 1 || at !== value.lastIndexOf('@')) return false
  const labels = value.slice(at + 1).split('.')
  return localPart.test(value.slice(0, at)) && labels.length >= 2 && labels.every((label) => domainLabel.test(label))
}

/**
 * The form's rule for a visitor's address (and a subscriber's): shaped as one, at a domain a
 * visitor's mail can be at, so not an IP address (its last label is all digits) nor a name of
 * this machine or a local network.
 */
export function isEmailAddress(value: string): boolean {
  if (!hasAddressShape(value)) return false
  // Judged as mail would reach it: `127.0.0.0x1` is 127.0.0.1, full-width `ｌａｎ` is lan.
  const domain = asciiDomain(value.slice(value.lastIndexOf('@') + 1))
  const last = domain.slice(domain.lastIndexOf('.') + 1)
  return !/^\d+$/.test(last) && !localNames.has(last) && domain.includes('.')
}

/**
 * A domain in one form, IDNA's ASCII in lower case, as every cap, subscription and erasure
 * matches it: `bücher.example` and `xn--bcher-kva.example` are one domain.
 */
export function asciiDomain(domain: string): string {
  const name = domain.toLowerCase().replace(/\.$/, '')
  try {
    return new URL(`http://${name}`).hostname
  } catch {
    return name
  }
}

/**
 * The mailbox an address reaches, for counting mails to it: lower case, its domain in IDNA's
 * ASCII form, without a `+tag`, and without the dots Gmail ignores. (Most providers deliver
 * `name+tag@` to `name@`.)
 */
export function mailboxKey(address: string): string {
  const at = address.lastIndexOf('@')
  const domain = asciiDomain(address.slice(at + 1))
  let local = address.slice(0, at).toLowerCase().split('+')[0]!
  if (domain === 'gmail.com' || domain === 'googlemail.com') local = local.replaceAll('.', '')
  return `${local}@${domain === 'googlemail.com' ? 'gmail.com' : domain}`
}

/** A link that opens a mail to the address and nothing more, whatever the address holds. */
export function mailtoHref(email: string): string {
  const at = email.lastIndexOf('@')
  return `mailto:${encodeURIComponent(email.slice(0, at))}@${encodeURIComponent(email.slice(at + 1))}`
}
