import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import type { FormMessages, Messages } from './compiled/messages'
import { isLanguage, type Language } from './languages'

// What a page needs of its language, in one module (so one script for the browser, not one per
// file): its messages loaded before it renders, and read by whatever it renders.

type CatalogLanguage = Exclude<Language, 'en-XA'>

/** One part of every language's catalog, each loaded once; the pseudo-language's made from English's. */
function catalogPart<Part extends object>(imports: Record<CatalogLanguage, () => Promise<{ default: Part }>>) {
  const loaded = new Map<Language, Part>()
  const importPart = (language: Language): Promise<Part> =>
    language === 'en-XA'
      ? Promise.all([import('./pseudo'), imports.en()]).then(([pseudo, english]) => pseudo.pseudoOf(english.default))
      : imports[language]().then((module) => module.default)
  async function load(language: Language): Promise<Part> {
    const found = loaded.get(language)
    if (found) return found
    const part = await importPart(language)
    loaded.set(language, part)
    return part
  }
  return { loaded, load }
}

// Each part of each catalog is a chunk of its own: a page loads its language's messages before it
// renders, and the form's when the visitor turns to it (compile-catalogs.ts).
const pageMessages = catalogPart<Messages>({
  en: () => import('./compiled/en'),
  fr: () => import('./compiled/fr'),
  de: () => import('./compiled/de'),
  es: () => import('./compiled/es'),
  it: () => import('./compiled/it'),
  nl: () => import('./compiled/nl'),
  pt: () => import('./compiled/pt'),
})
const formMessages = catalogPart<FormMessages>({
  en: () => import('./compiled/en.form'),
  fr: () => import('./compiled/fr.form'),
  de: () => import('./compiled/de.form'),
  es: () => import('./compiled/es.form'),
  it: () => import('./compiled/it.form'),
  nl: () => import('./compiled/nl.form'),
  pt: () => import('./compiled/pt.form'),
})

/** Loads a language's messages once: a loader (on the server) or a page's first script (in the browser) waits for it. */
export const loadMessages = pageMessages.load

/** Loads what a language's form says once the visitor sends it (its refusals, 'Submitting...'), with its checks. */
export const loadFormMessages = formMessages.load

/** The messages of the language the server wrote a page in (its `<html lang>`), for the browser to wait for before hydrating. */
export const loadPageMessages = (lang: string) => (isLanguage(lang) ? loadMessages(lang) : Promise.resolve(undefined))

/** A language's messages, loaded before: a page renders at once. */
export function messagesIn(language: Language): Messages {
  const found = pageMessages.loaded.get(language)
  if (!found) throw new Error(`The ${language} messages were not loaded before the page rendered`)
  return found
}

const PageLanguage = createContext<Language>('en')

/** The language a page is read in, for everything it renders. */
export function InLanguage({ language, children }: { language: Language; children: ReactNode }) {
  return <PageLanguage.Provider value={language}>{children}</PageLanguage.Provider>
}

export const usePageLanguage = () => useContext(PageLanguage)

/** The page's language's messages: its route loaded them (loadMessages) before it renders. */
export const useMessages = (): Messages => messagesIn(useContext(PageLanguage))

/**
 * A language's messages for what every page shows (the header), whichever page the browser came
 * from: a page's script loaded its own language's, and a move to a page in another loads that
 * one's, showing the words held meanwhile.
 */
export function useMessagesOf(language: Language): Messages {
  const held = pageMessages.loaded.get(language)
  const [, loaded] = useState(0)
  useEffect(() => {
    if (!held) void loadMessages(language).then(() => loaded((count) => count + 1))
  }, [language, held])
  const words = held ?? pageMessages.loaded.values().next().value
  if (!words) throw new Error(`No messages were loaded before the page rendered`)
  return words
}
