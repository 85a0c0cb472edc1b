// Compiles each language's catalog (app/language/catalogs/<language>.json, ICU MessageFormat) into
// plain functions, so no parser reaches the browser, in three parts by when the browser needs them
// (`messageParts`): compiled/<language>.ts, what a page renders, loaded before it does;
// <language>.form.ts, what the form says once the visitor acts, loaded with its checks; and
// <language>.server.ts, what only the server says, never sent to the browser. English's catalog
// makes the interfaces every compiled part is typed by: a message missing in a language, or one
// called with a wrong argument, fails `tsc` (decision 050).
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

/** The messages that are not a page's (what it renders, before it does): every other message is. */
export const notThePages = {
  /** Said once the visitor sends the form: they come with its checks when the visitor turns to it. */
  form: [
    'submitting',
    'fallbackSuccess',
    'fieldRequired',
    'fieldNotText',
    'fieldTooLong',
    'fieldControlCharacters',
    'invalidEmail',
  ],
  /** Said by the server alone: a page's data (its title, the owner's words' defaults, this week's list), the answers to a post, the mails to a visitor. */
  server: [
    'updatedOn',
    'available',
    'fewLeft',
    'comingSoon',
    'soldOut',
    'outOfSeason',
    'comingSoonFrom',
    'priceFor',
    'pageTitle',
    'pageDescription',
    'defaultWelcome',
    'defaultIntro',
    'defaultUpdatesTitle',
    'defaultUpdatesText',
    'defaultOffersTitle',
    'defaultOffersText',
    'thankYou',
    'couldNotSend',
    'couldNotRead',
    'tooManySubmissions',
    'mailReplySubject',
    'mailAcknowledgementSubject',
    'mailConfirmationSubject',
    'mailYouWrote',
    'mailFooter',
    'mailAskForUpdates',
    'acknowledgementText',
    'askOnlyText',
    'consentWords',
    'updatesPageTitle',
    'unsubscribePageTitle',
    'linkExpiredTitle',
    'linkExpiredText',
    'linkInvalidTitle',
    'linkInvalidText',
    'confirmTitle',
    'confirmQuestion',
    'confirmButton',
    'confirmNone',
    'subscribedTitle',
    'subscribedText',
    'unsubscribeTitle',
    'unsubscribeText',
    'unsubscribeButton',
    'resubscribedTitle',
    'resubscribedText',
    'unsubscribedTitle',
    'unsubscribedText',
    'undoQuestion',
    'undoButton',
    'testLinkTitle',
    'testLinkText',
    'updateSaidYesOn',
    'updateSaidYes',
    'updateAddedOn',
    'updateAdded',
    'updateUnsubscribeText',
    'updateUnsubscribeLink',
    'updateForTest',
    'tellMeOnUpdates',
    'tellMeCheckMail',
    'tellMeNotTaking',
    'tellMeNoSuchProduct',
    'tellMeCheckFields',
    'tellMeHeading',
    'tellMeBack',
  ],
}

/** Each part of a catalog: its file beside the language's code, and its interface. */
export const messageParts = {
  page: { file: '', type: 'Messages' },
  form: { file: '.form', type: 'FormMessages' },
  server: { file: '.server', type: 'ServerMessages' },
} as const
export type MessagePart = keyof typeof messageParts
export const partNames = Object.keys(messageParts) as MessagePart[]

const partOf = (key: string): MessagePart =>
  notThePages.form.includes(key) ? 'form' : notThePages.server.includes(key) ? 'server' : 'page'

/** A catalog's messages in one part, as written. */
export const partOfCatalog = (catalog: Record<string, string>, part: MessagePart) =>
  Object.fromEntries(Object.entries(catalog).filter(([key]) => partOf(key) === part))

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
  // By name: a language may say them in another order than English.
  const named = [...found].sort(([a], [b]) => a.localeCompare(b))
  return `(values: { ${named.map(([name, type]) => `${name}: ${type}`).join('; ')} }): string`
}

/** The interfaces every language's parts are: English's messages, with their arguments. */
export function messagesInterface() {
  const english = catalogOf('en')
  const interfaces = partNames.map((part) => {
    const lines = Object.entries(partOfCatalog(english, part)).map(([key, source]) => `  ${key}${signature(source)}`)
    return `export interface ${messageParts[part].type} {\n${lines.join('\n')}\n}\n`
  })
  return `${made}${interfaces.join('\n')}`
}

/** A part of a language's catalog as plain functions; refuses a message whose arguments differ from English's. */
export function compiledCatalog(language: string, part: MessagePart) {
  const catalog = catalogOf(language)
  const english = catalogOf('en')
  for (const [key, source] of Object.entries(catalog)) {
    if (english[key] !== undefined && signature(source) !== signature(english[key])) {
      throw new Error(`${language}.json: ${key} takes other arguments than in English`)
    }
  }
  const { type } = messageParts[part]
  const module = compileModule(new MessageFormat(language, { strict: true }), partOfCatalog(catalog, part))
  const typed = module
    .replace('"@messageformat/runtime"', "'../runtime'")
    .replace(/^export default \{/m, `const messages: ${type} = {`)
  return `${made}import type { ${type} } from './messages'\n${typed}\nexport default messages\n`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(`${root}compiled`, { recursive: true })
  writeFileSync(`${root}compiled/messages.ts`, messagesInterface())
  for (const language of catalogLanguages) {
    for (const part of partNames) {
      writeFileSync(`${root}compiled/${language}${messageParts[part].file}.ts`, compiledCatalog(language, part))
    }
  }
}
