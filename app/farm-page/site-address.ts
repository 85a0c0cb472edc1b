const escapedXml: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/**
 * The site's address as crawlers are told it: PUBLIC_URL without its last slash, escaped for XML
 * and plain text; null while no PUBLIC_URL is set (the Host a request names is anyone's to choose).
 */
export function siteAddress(siteUrl: string | null): string | null {
  return siteUrl ? siteUrl.replace(/\/+$/, '').replace(/[&<>"'\s]/g, (letter) => escapedXml[letter] ?? '') : null
}
