import { createContext, useContext } from 'react'
import fullHref from './tailwind.css'
import visitorHref from './visitor.css'

/** The whole site's stylesheet, and the home page's own smaller one (decision 045). */
export const stylesheets = { full: fullHref, visitor: visitorHref } as const
export type StylesheetName = keyof typeof stylesheets

/** A route's `handle` when the page is the home page's: it inlines the visitor's sheet. */
export const visitorPage = { stylesheet: 'visitor' } as const

const elementId = 'stylesheet'
const StylesheetContext = createContext<((name: StylesheetName) => string | null) | null>(null)

/** Carries the stylesheets' texts from the server's render (entry.server.tsx) to <Stylesheet />. */
export const StylesheetProvider = StylesheetContext.Provider

/** On the server: the sheet the page asks for. In the browser: the one the server inlined, kept as it is. */
function useInlined(name: StylesheetName): { name: StylesheetName; text: string } | null {
  const read = useContext(StylesheetContext)
  if (read) {
    const text = read(name)
    return text === null ? null : { name, text }
  }
  if (typeof document === 'undefined') return null
  const element = document.getElementById(elementId)
  if (!element?.textContent) return null
  return { name: element.dataset.sheet === 'visitor' ? 'visitor' : 'full', text: element.textContent }
}

/**
 * The page's stylesheet (about 6 KB compressed) inlined, so the first paint waits for no second
 * request. In the browser the element keeps the text the server sent, so hydration leaves it as it
 * is; a page reached in the browser from the home page, whose sheet is smaller, links the whole
 * one beside it; if the server could not read the file, a plain link stands in.
 */
export function Stylesheet({ name }: { name: StylesheetName }) {
  const inlined = useInlined(name)
  if (inlined === null) return <link rel="stylesheet" href={stylesheets[name]} />
  return (
    <>
      <style id={elementId} data-sheet={inlined.name} dangerouslySetInnerHTML={{ __html: inlined.text }} />
      {inlined.name === 'visitor' && name === 'full' ? <link rel="stylesheet" href={stylesheets.full} /> : null}
    </>
  )
}
