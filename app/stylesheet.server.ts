import { readFileSync } from 'node:fs'
import { stylesheetHref } from './stylesheet'

let text: string | null | undefined

/**
 * The stylesheet's text, read once per build: the Remix server build (build/index.js) sits
 * beside public/, where the browser bundle and the stylesheet are written.
 */
export function stylesheetText(): string | null {
  if (text === undefined) {
    try {
      text = readFileSync(new URL(`../public${stylesheetHref}`, import.meta.url), 'utf8')
    } catch {
      text = null
    }
  }
  return text
}
