/** The placeholders a saved reply may hold, filled in from the lead when it is chosen. */
export const replyPlaceholders = ['name', 'farm', 'products'] as const
/** The acknowledgement goes to whoever typed an address: it may name the farm, never anything they typed. */
export const acknowledgementPlaceholders = ['farm'] as const

export type PlaceholderValues = Partial<Record<(typeof replyPlaceholders)[number], string>>

const placeholder = /\{([^{}\n]{0,40})\}/g

const listed = (names: readonly string[]) =>
  names.length === 1
    ? `{${names[0]}}`
    : `${names
        .slice(0, -1)
        .map((name) => `{${name}}`)
        .join(', ')} or {${names.at(-1)}}`

/** Why a text's placeholders cannot be filled (naming the first unknown one), or null. */
export function placeholderError(text: string, allowed: readonly string[]): string | null {
  for (const [whole, name] of text.matchAll(placeholder)) {
    if (!allowed.includes(name!)) return `${whole} is not a placeholder this text can fill: use ${listed(allowed)}.`
  }
  return null
}

/** The text with each known placeholder replaced; anything else is left as it is. */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(placeholder, (whole, name: string) => values[name as keyof PlaceholderValues] ?? whole)
}

/** The products the analysis found, as a person would say them: "eggs, honey and apples". */
export function productsInWords(products: string[]): string {
  if (products.length === 0) return 'our produce'
  if (products.length === 1) return products[0]!
  return `${products.slice(0, -1).join(', ')} and ${products.at(-1)}`
}
