import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  catalogLanguages as compiled,
  catalogOf,
  compiledCatalog,
  messageParts,
  messagesInterface,
  notThePages,
  partNames,
} from './compile-catalogs'
import { catalogs } from './catalogs.server'
import { chosenLanguage } from './accept-language.server'
import { languages } from './languages'
import { pseudoOf, pseudoText } from './pseudo'

const here = join(import.meta.dirname)
const englishKeys = Object.keys(catalogOf('en'))
const english = catalogs.en

/** Every file of app/ but the catalogs, the compiled ones and the tests: where a message is used. */
function appSources(folder = join(here, '..')): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return path.endsWith('compiled') || path.endsWith('catalogs') ? [] : appSources(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [readFileSync(path, 'utf8')] : []
  })
}

describe('the catalogs', () => {
  it('are every language the farm may choose but the pseudo-language, which is made from English', () => {
    expect([...compiled, 'en-XA']).toEqual([...languages])
  })

  it.each(compiled)('%s has every English message, and none English has not', (language) => {
    expect(Object.keys(catalogOf(language)).sort()).toEqual([...englishKeys].sort())
  })

  it.each(compiled.flatMap((language) => partNames.map((part) => [language, part] as const)))(
    '%s, its %s part, is compiled as its catalog says (npm run messages)',
    (language, part) => {
      const file = join(here, 'compiled', `${language}${messageParts[part].file}.ts`)
      expect(readFileSync(file, 'utf8')).toBe(compiledCatalog(language, part))
    },
  )

  it('name only messages they hold as the form’s or the server’s', () => {
    expect(
      Object.values(notThePages)
        .flat()
        .filter((key) => !englishKeys.includes(key)),
    ).toEqual([])
  })

  it('type every message by its English arguments', () => {
    expect(readFileSync(join(here, 'compiled', 'messages.ts'), 'utf8')).toBe(messagesInterface())
  })

  it('hold no message that no page uses', () => {
    const sources = appSources().join('\n')
    // `messages.submit`, or a part's: `formMessages.submitting`.
    expect(englishKeys.filter((key) => !new RegExp(`[mM]essages\\.${key}\\b`).test(sources))).toEqual([])
  })

  it('say plurals by ICU, a number written as the language writes it', () => {
    expect(english.fieldTooLong({ field: 'message', max: 5000 })).toBe('Message must be at most 5,000 characters')
    expect(english.fieldTooLong({ field: 'name', max: 1 })).toBe('Name must be at most 1 character')
  })
})

describe('the pseudo-language', () => {
  it('is each message about 40 % longer and accented, its {product} kept', () => {
    const pseudo = pseudoOf(english)
    const values = { field: 'name', max: 100, product: '{product}', date: '6 June', time: '9:00', day: 'Monday' }
    const all = { ...values, days: '6 June', hours: '9–5', what: 'Closed', note: 'Fair', price: '€4', unit: 'a dozen' }
    const say = (messages: object, key: string) => (messages as Record<string, (values: object) => string>)[key]!(all)
    for (const key of englishKeys) {
      expect(say(pseudo, key).length).toBeGreaterThanOrEqual(say(english, key).length * 1.35)
      expect(say(pseudo, key)).toMatch(/[åéîöûçñšýž]/i)
    }
    expect(pseudoText('{product} Updates')).toMatch(/^\[\{product\} Ûpdåtéš /)
  })
})

describe('the language a browser asks for (Accept-Language)', () => {
  const belgian = ['fr', 'nl'] as const
  it.each([
    [null, 'fr'],
    ['nl-BE,nl;q=0.9,en;q=0.8', 'nl'],
    ['en-GB,en;q=0.9', 'fr'],
    ['de, nl;q=0.5, fr;q=0.7', 'fr'],
    ['nl;q=0, fr;q=0.1', 'fr'],
    ['NL', 'nl'],
    ['*', 'fr'],
    ['nl;q=abc', 'nl'],
  ])('%s reads as %s', (header, expected) => {
    expect(chosenLanguage(header, [...belgian])).toBe(expected)
  })
})
