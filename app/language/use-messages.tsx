import { createContext, useContext, type ReactNode } from 'react'
import type { Messages } from './compiled/messages'
import { isLanguage, type Language } from './languages'

// What a page needs of its language, in one module (so one script for the browser, not one per
// file): its messages loaded before it renders, and read by whatever it renders.

// Each catalog is a chunk of its own: a page loads only its language's, before it renders.
const catalogs: Record<Language, () => Promise<Messages>> = {
  en: () => import('./compiled/en').then((loaded) => loaded.default),
  fr: () => import('./compiled/fr').then((loaded) => loaded.default),
  de: () => import('./compiled/de').then((loaded) => loaded.default),
  es: () => import('./compiled/es').then((loaded) => loaded.default),
  it: () => import('./compiled/it').then((loaded) => loaded.default),
  nl: () => import('./compiled/nl').then((loaded) => loaded.default),
  pt: () => import('./compiled/pt').then((loaded) => loaded.default),
  'en-XA': () => Promise.all([import('./pseudo'), catalogs.en()]).then(([pseudo, english]) => pseudo.pseudoOf(english)),
}

const loaded = new Map<Language, Messages>()

/** Loads a language's messages once: a loader (on the server) or a page's first script (in the browser) waits for it. */
export async function loadMessages(language: Language): Promise<Messages> {
  const found = loaded.get(language)
  if (found) return found
  const messages = await catalogs[language]()
  loaded.set(language, messages)
  return messages
}

/** The messages of the language the server wrote a page in (its `<html lang>`), for the browser to wait for before hydrating. */
export const loadPageMessages = (lang: string) => (isLanguage(lang) ? loadMessages(lang) : Promise.resolve(undefined))

/** A language's messages, loaded before: a page renders at once. */
export function messagesIn(language: Language): Messages {
  const found = loaded.get(language)
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
