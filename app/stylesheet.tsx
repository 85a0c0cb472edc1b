import { createContext, useContext } from 'react'
import href from './tailwind.css'

const elementId = 'stylesheet'
const StylesheetContext = createContext<string | null>(null)

/** Carries the stylesheet's text from the server's render (entry.server.tsx) to <Stylesheet />. */
export const StylesheetProvider = StylesheetContext.Provider
export const stylesheetHref = href

/**
 * The site's one stylesheet (about 6 KB compressed) inlined in the page, so the first paint
 * waits for no second request. In the browser the element is rendered with the text the
 * server sent, so hydration leaves it as it is; if the server could not read the file, a
 * plain link stands in.
 */
export function Stylesheet() {
  const text =
    useContext(StylesheetContext) ??
    (typeof document === 'undefined' ? null : (document.getElementById(elementId)?.textContent ?? null))
  if (text === null) return <link rel="stylesheet" href={href} />
  return <style id={elementId} dangerouslySetInnerHTML={{ __html: text }} />
}
