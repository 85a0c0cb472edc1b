import { createContext, useContext, useState } from 'react'
import fullHref from './tailwind.css'
import inboxHref from './inbox.css'
import visitorHref from './visitor.css'

/** The whole site's stylesheet, and the home page's and the inbox's own smaller ones (decisions 045, 049). */
export const stylesheets = { full: fullHref, visitor: visitorHref, inbox: inboxHref } as const
export type StylesheetName = keyof typeof stylesheets

/**
 * A route's `handle` for a page that inlines its own sheet (every other page inlines the whole
 * site's); `whenHome` when only some of its pages are the home page (a language's, /nl/): those
 * whose data says `home`. A route imports only this type, so this file's script stays the root's.
 */
export interface StylesheetHandle {
  stylesheet: Exclude<StylesheetName, 'full'>
  whenHome?: true
}

/** The sheet for the page a route renders, as its `handle` names it. */
export function stylesheetOf(match: { handle?: unknown; data?: unknown } | undefined): StylesheetName {
  const handle = match?.handle
  if (typeof handle !== 'object' || handle === null || !('stylesheet' in handle)) return 'full'
  if ('whenHome' in handle && !isHome(match?.data)) return 'full'
  return handle.stylesheet === 'visitor' || handle.stylesheet === 'inbox' ? handle.stylesheet : 'full'
}

const isHome = (data: unknown) => typeof data === 'object' && data !== null && 'home' in data && Boolean(data.home)

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
  return { name: stylesheetOf({ handle: { stylesheet: element.dataset.sheet } }), text: element.textContent }
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
