// Compiles each language's catalog (app/language/catalogs/<language>.json, ICU MessageFormat) into
// plain functions (app/language/compiled/<language>.ts), so no parser reaches the browser, and the
// English catalog into the Messages interface every compiled catalog is typed by: a message missing
// in a language, or one called with a wrong argument, fails `tsc` (decision 050).
// Run by `npm run messages` after a catalog changes (never by the site); catalogs.test.ts fails
// when the compiled files are not what this would write.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import MessageFormat from '@messageformat/core'
import compileModule from '@messageformat/core/lib/compile-module.js'
import { parse, type Token } from '@messageformat/parser'

export const catalogLanguages = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt'] as const
const root = fileURLToPath(new URL('./', import.meta.url))
const made = '// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.\n'

export const catalogOf = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(`${root}catalogs/${language}.json`, 'utf8'))

/** Each argument a message takes, with its type: a select's cases, a plural's number, else text or a number. */
function argumentsOf(tokens: Token[], found = new Map<string, string>()) {
  for (const token of tokens) {
    if (token.type === 'argument') found.set(token.arg, found.get(token.arg) ?? 'string | number')
    if (token.type === 'select') {
      // Its own cases only: \`other\` is there because ICU asks for it, not a value to pass.
      const cases = token.cases.map((each) => each.key).filter((key) => key !== 'other')
      found.set(token.arg, cases.map((key) => JSON.stringify(key)).join(' | '))
    }
    if (token.type === 'plural' || token.type === 'selectordinal') found.set(token.arg, 'number')
    if ('cases' in token) for (const each of token.cases) argumentsOf(each.tokens, found)
  }
  return found
}

function signature(source: string) {
  const found = argumentsOf(parse(source, { strict: true }))
  if (found.size === 0) return '(): string'
  return `(values: { ${[...found].map(([name, type]) => `${name}: ${type}`).join('; ')} }): string`
}

/** The interface every language's catalog is: English's messages, with their arguments. */
export function messagesInterface() {
  const english = catalogOf('en')
  const lines = Object.entries(english).map(([key, source]) => `  ${key}${signature(source)}`)
  return `${made}export interface Messages {\n${lines.join('\n')}\n}\n`
}

/** A language's catalog as plain functions; refuses a message whose arguments differ from English's. */
export function compiledCatalog(language: string) {
  const catalog = catalogOf(language)
  const english = catalogOf('en')
  for (const [key, source] of Object.entries(catalog)) {
    if (english[key] !== undefined && signature(source) !== signature(english[key])) {
      throw new Error(`${language}.json: ${key} takes other arguments than in English`)
    }
  }
  const module = compileModule(new MessageFormat(language, { strict: true }), catalog)
  const typed = module
    .replace('"@messageformat/runtime"', "'../runtime'")
    .replace(/^export default \{/m, 'const messages: Messages = {')
  return `${made}import type { Messages } from './messages'\n${typed}\nexport default messages\n`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(`${root}compiled`, { recursive: true })
  writeFileSync(`${root}compiled/messages.ts`, messagesInterface())
  for (const language of catalogLanguages) writeFileSync(`${root}compiled/${language}.ts`, compiledCatalog(language))
}
