import type { Language } from './languages'

/**
 * The farm's language a browser asks for first (`Accept-Language`, by weight, then order), matched
 * on the language alone (`nl-BE` is `nl`); the farm's first when it asks for none of them.
 */
export function chosenLanguage(acceptLanguage: string | null, farmLanguages: readonly Language[]): Language {
  const [first] = farmLanguages
  if (!first) throw new Error('A farm speaks at least one language')
  if (!acceptLanguage || farmLanguages.length === 1) return first
  const asked = acceptLanguage
    .slice(0, 1_000)
    .split(',')
    .slice(0, 30)
    .map((part, order) => {
      const [tag = '', ...parameters] = part.trim().split(';')
      const weight = parameters.map((each) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(each)?.[1]).find(Boolean)
      return { tag: tag.trim().toLowerCase(), weight: weight === undefined ? 1 : Number(weight), order }
    })
    .filter(({ weight }) => weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
  for (const { tag } of asked) {
    const found = farmLanguages.find((language) => language.toLowerCase() === tag || tag.startsWith(`${language}-`))
    if (found) return found
  }
  return first
}
