// A visitor's address: whether it is one, the mailbox it reaches, and a safe link to it.

// The spec's rule is some text, an at sign, some text, a dot, some text. The text is held to
// what addresses are made of, so none can carry a query (`?cc=…&bcc=…`) into a mailto: link:
// the local part without `?`, `&`, `%` or spaces, the domain made of dot-separated labels.
const localPart = /^[\p{L}\p{N}!#$'*+/=^_`{|}~.-]+$/u
const domainLabel = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u

/** The form's rule for an email address, also used for the owner's addresses in the settings. */
export function isEmailAddress(value: string): boolean {
  const at = value.indexOf('@')
  if (at < 1 || at !== value.lastIndexOf('@')) return false
  const labels = value.slice(at + 1).split('.')
  return localPart.test(value.slice(0, at)) && labels.length >= 2 && labels.every((label) => domainLabel.test(label))
}

/**
 * The mailbox an address reaches, for counting mails to it: lower case, without a `+tag`, and
 * without the dots Gmail ignores. (Most providers deliver `name+tag@` to `name@`.)
 */
export function mailboxKey(address: string): string {
  const at = address.lastIndexOf('@')
  const domain = address
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '')
  let local = address.slice(0, at).toLowerCase().split('+')[0]!
  if (domain === 'gmail.com' || domain === 'googlemail.com') local = local.replaceAll('.', '')
  return `${local}@${domain === 'googlemail.com' ? 'gmail.com' : domain}`
}

/** A link that opens a mail to the address and nothing more, whatever the address holds. */
export function mailtoHref(email: string): string {
  const at = email.lastIndexOf('@')
  return `mailto:${encodeURIComponent(email.slice(0, at))}@${encodeURIComponent(email.slice(at + 1))}`
}
