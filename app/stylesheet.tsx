import { createContext, useContext, useState } from 'react'
import fullHref from './tailwind.css'
import inboxHref from './inbox.css'
import visitorHref from './visitor.css'

/** The whole site's stylesheet, and the home page's and the inbox's own smaller ones (decisions 045, 049). */
export const stylesheets = { full: fullHref, visitor: visitorHref, inbox: inboxHref } as const
export type StylesheetName = keyof typeof stylesheets

/** A route's `handle` for a page that inlines its own sheet; every other page inlines the whole site's. */
export const ownStylesheet = (name: Exclude<StylesheetName, 'full'>) => ({ stylesheet: name })

/** The sheet a route's `handle` names. */
export function stylesheetOf(handle: unknown): StylesheetName {
  const named = typeof handle === 'object' && handle !== null && 'stylesheet' in handle ? handle.stylesheet : null
  return named === 'visitor' || named === 'inbox' ? named : 'full'
}

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
  return { name: stylesheetOf({ stylesheet: element.dataset.sheet }), text: element.textContent }
}

/**
 * The page's stylesheet (about 6 KB compressed) inlined, so the first paint waits for no second
 * request. In the browser the element keeps the text the server sent, so hydration leaves it as it
 * is; a page reached in the browser from a page whose own sheet is smaller (the home page, the
 * inbox) links the whole one beside it; if the server could not read the file, a plain link stands in.
 */
export function Stylesheet({ name }: { name: StylesheetName }) {
  const inlined = useInlined(name)
  if (inlined === null) return <link rel="stylesheet" href={stylesheets[name]} />
  return (
    <>
      <style id={elementId} data-sheet={inlined.name} dangerouslySetInnerHTML={{ __html: inlined.text }} />
      {inlined.name !== 'full' && inlined.name !== name ? <WholeSheet /> : null}
    </>
  )
}

/**
 * The whole site's sheet, linked in the browser on a page reached from one with a smaller sheet of
 * its own: the page is hidden until it has loaded (a moment; it is cached after), so no one sees
 * it unstyled, nor clicks or reads it half-styled.
 */
function WholeSheet() {
  const [loaded, setLoaded] = useState(false)
  return (
    <>
      <link rel="stylesheet" href={stylesheets.full} onLoad={() => setLoaded(true)} onError={() => setLoaded(true)} />
      {loaded ? null : <style>{'body{visibility:hidden}'}</style>}
    </>
  )
}
