/**
 * The languages the farm's visitors may read it in (FARM_LANGUAGES), each its own catalog in
 * catalogs/; `en-XA` is English made about 40 % longer and accented, to find cut or overflowing
 * text on a page before a real language does.
 */
export const languages = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt', 'en-XA'] as const
export type Language = (typeof languages)[number]

export const isLanguage = (code: string): code is Language => (languages as readonly string[]).includes(code)

/** A code asked for (an address's, a form's), when the farm speaks it as written; else the farm's first language. */
export const spokenOr = (asked: string, farmLanguages: readonly Language[]): Language =>
  isLanguage(asked) && farmLanguages.includes(asked) ? asked : (farmLanguages[0] ?? 'en')

/** A language as a row keeps it (a lead's, a subscriber's): none, or one the site does not speak (a restored file's), is English. */
export const keptLanguage = (kept: string | null): Language => (kept !== null && isLanguage(kept) ? kept : 'en')

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
