import { readFileSync } from 'node:fs'
import { stylesheets, type StylesheetName } from './stylesheet'

const texts = new Map<StylesheetName, string | null>()

/**
 * A stylesheet's text, read once per build: the Remix server build (build/index.js) sits
 * beside public/, where the browser bundle and the stylesheets are written.
 */
export function stylesheetText(name: StylesheetName): string | null {
  if (!texts.has(name)) {
    try {
      texts.set(name, readFileSync(new URL(`../public${stylesheets[name]}`, import.meta.url), 'utf8'))
    } catch {
      texts.set(name, null)
    }
  }
  return texts.get(name)!
}
