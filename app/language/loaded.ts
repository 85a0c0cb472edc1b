import type { Messages } from './compiled/messages'
import type { Language } from './languages'

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

/** A language's messages, loaded before: a page renders at once. */
export function messagesIn(language: Language): Messages {
  const found = loaded.get(language)
  if (!found) throw new Error(`The ${language} messages were not loaded before the page rendered`)
  return found
}
