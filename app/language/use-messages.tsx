import { createContext, useContext, type ReactNode } from 'react'
import type { Messages } from './compiled/messages'
import { messagesIn } from './loaded'
import type { Language } from './languages'

const PageLanguage = createContext<Language>('en')

/** The language a page is read in, for everything it renders. */
export function InLanguage({ language, children }: { language: Language; children: ReactNode }) {
  return <PageLanguage.Provider value={language}>{children}</PageLanguage.Provider>
}

export const usePageLanguage = () => useContext(PageLanguage)

/** The page's language's messages: its route loaded them (loadMessages) before it renders. */
export const useMessages = (): Messages => messagesIn(useContext(PageLanguage))
