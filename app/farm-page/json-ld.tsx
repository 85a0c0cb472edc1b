/** JSON as a script element holds it: no letter of it can end the element or start markup. */
export const jsonInHtml = (data: unknown) =>
  JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (letter) => `\\u${letter.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )

/**
 * The page's JSON-LD, in the body with the response's nonce like every script element the site
 * sends (a data block runs nothing, but the policy's rule stays one rule: every script has the nonce).
 */
export function JsonLd({ data, nonce }: { data: unknown; nonce: string }) {
  return (
    <script
      type="application/ld+json"
      nonce={nonce || undefined}
      // The browser hides the nonce once read: what it hydrates has none.
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: jsonInHtml(data) }}
    />
  )
}
