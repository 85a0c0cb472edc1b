/**
 * The languages the farm's visitors may read it in (FARM_LANGUAGES), each its own catalog in
 * catalogs/; `en-XA` is English made about 40 % longer and accented, to find cut or overflowing
 * text on a page before a real language does.
 */
export const languages = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt', 'en-XA'] as const
export type Language = (typeof languages)[number]

export const isLanguage = (code: string): code is Language => (languages as readonly string[]).includes(code)

/** Each language's name as its speakers write it: the switcher's words. */
export const languageNames: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
  pt: 'Português',
  'en-XA': 'Ƥšéûđöľöçåľé',
}

/** Where a language's home page is: the farm's first language at `/`, every other under its code. */
export const homePathOf = (language: Language, farmLanguages: readonly Language[]) =>
  language === farmLanguages[0] ? '/' : `/${language}/`

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
