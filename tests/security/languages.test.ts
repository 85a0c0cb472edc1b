// The farm's languages (FARM_LANGUAGES, issue 50) from every side a stranger can reach: odd codes
// in the address, in Accept-Language and in the setting, in the language a JSON post names, and
// in the language a lead keeps when its visitor is mailed.
import Sqlite from 'better-sqlite3'
import MailComposer from 'nodemailer/lib/mail-composer'
import { describe, expect, it } from 'vitest'
import { visitorMail } from '#app/replies/reply-mail.server'
import { replyRow } from '#tests/fixtures/reply-row'
import { getPage } from '#tests/support/home-page'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const serve = serverPerTest()
const belgian = () => serve({ env: { FARM_LANGUAGES: 'fr,nl', OWNER_PASSWORD: password } })
/** A header of a raw answer, by its name in any case; null when it was not sent. */
function header(answer: { rawHeaders: string[] }, name: string): string | null {
  const at = answer.rawHeaders.findIndex((each, index) => index % 2 === 0 && each.toLowerCase() === name)
  return at === -1 ? null : answer.rawHeaders[at + 1]!
}
const lang = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]

describe('a language in the address', () => {
  it('is a language the farm speaks after its first, spelled as it is written, with its slash', async () => {
    const server = await belgian()
    const pages = [
      ['/nl/', 200, 'nl'],
      ['/nl/./', 200, 'nl'],
      ['/NL/', 404, 'fr'],
      ['/Nl/', 404, 'fr'],
      ['/fr/', 404, 'fr'],
      ['/de/', 404, 'fr'],
      ['/en/', 404, 'fr'],
      ['/en-XA/', 404, 'fr'],
      ['/nl/nl/', 404, 'nl'],
      ['/nl;/', 404, 'fr'],
      ['/nl%00/', 404, 'fr'],
      [`/${'n'.repeat(4000)}/`, 404, 'fr'],
      ['/nl/%2e%2e/', 200, 'fr'],
    ] as const
    for (const [path, status, language] of pages) {
      const answer = await getPage(server, path)
      expect([path, answer.status, lang(answer.html)]).toEqual([path, status, language])
    }
  })

  it('without its slash is sent to the address with it', async () => {
    const server = await belgian()
    const answer = await getPage(server, '/nl')
    expect([answer.status, header(answer, 'location')]).toEqual([308, '/nl/'])
    expect((await getPage(server, '/de')).status).toBe(404)
  })

  it('takes a posted form only at a language’s home page', async () => {
    const server = await belgian()
    for (const path of ['/de/', '/NL/', '/fr/', '/nope']) {
      expect((await getPage(server, path, {}, 'POST')).status, path).toBe(405)
    }
  })

  it('keeps each language’s page apart: a kept Dutch page never answers /', async () => {
    const server = await belgian()
    for (let visit = 0; visit < 3; visit++) expect(lang((await getPage(server, '/nl/')).html)).toBe('nl')
    for (let visit = 0; visit < 3; visit++) expect(lang((await getPage(server, '/')).html)).toBe('fr')
  })
})

describe('Accept-Language', () => {
  it('chooses only among the farm’s languages, whatever it says, and caches are told / varies by it', async () => {
    const server = await belgian()
    const asked = [
      ['nl', '/nl/'],
      ['NL-be', '/nl/'],
      ['nl;q=2', '/nl/'],
      ['de, nl;q=0.1', '/nl/'],
      ['nl;q=0, fr;q=0.1', null],
      ['../../nl', null],
      [';;;,,,q=', null],
      ['*', null],
      ['de', null],
      [`${'x-'.repeat(3000)}nl`, null],
      [Array(200).fill('de;q=0.9').join(',') + ',nl', null],
    ] as const
    for (const [said, to] of asked) {
      const answer = await getPage(server, '/', { 'Accept-Language': said })
      expect([said.slice(0, 20), answer.status, header(answer, 'location')]).toEqual([
        said.slice(0, 20),
        to ? 302 : 200,
        to,
      ])
      expect(header(answer, 'vary'), said.slice(0, 20)).toMatch(/Accept-Language/)
    }
  })

  it('is not read on a farm of one language, nor on / with a query (the switcher’s way back)', async () => {
    const french = await serve({ env: { FARM_LANGUAGES: 'fr' } })
    const one = await getPage(french, '/', { 'Accept-Language': 'nl' })
    expect([one.status, lang(one.html), header(one, 'vary')?.includes('Accept-Language') ?? false]).toEqual([
      200,
      'fr',
      false,
    ])
    const server = await belgian()
    const back = await getPage(server, '/?language=fr', { 'Accept-Language': 'nl' })
    expect([back.status, lang(back.html)]).toEqual([200, 'fr'])
  })
})

describe('the setting', () => {
  const patch = (server: RunningServer, cookie: string, value: unknown) =>
    fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ FARM_LANGUAGES: value }),
    })

  it('takes only known codes, each once, as written, and the home page follows it', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    const cookie = await signInAsOwner(server.url, password)
    expect(lang((await getPage(server, '/')).html)).toBe('en')
    for (const refused of ['FR', 'fr,../', '../nl', 'fr,fr', 'fr;nl', 'fr, xx', 'f'.repeat(600), 'fr,nl\nde', ['fr']]) {
      const answer = await patch(server, cookie, refused)
      expect([String(refused).slice(0, 20), answer.status]).toEqual([String(refused).slice(0, 20), 400])
    }
    expect(lang((await getPage(server, '/')).html)).toBe('en')
    expect((await patch(server, cookie, 'nl, de')).status).toBe(200)
    expect(lang((await getPage(server, '/')).html)).toBe('nl')
    expect((await getPage(server, '/de/')).status).toBe(200)
    expect((await getPage(server, '/en/')).status).toBe(404)
  })
})

describe('the language a JSON post names', () => {
  it('is kept only when it is one the site speaks; anything else is kept as none, and answered in English', async () => {
    const server = await belgian()
    const named = ['nl', 'NL', '../nl', 'nl-BE', 42, null, 'x'.repeat(10_000), ['nl'], { nl: true }]
    for (const [index, language] of named.entries()) {
      const answer = await fetch(`${server.url}/api/submissions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `Visitor ${index}`, email: 'v@example.com', message: 'Eggs?', language }),
      })
      const body = (await answer.json()) as { message: string }
      expect([index, answer.status, body.message]).toEqual([
        index,
        201,
        index === 0
          ? 'Bedankt! Je bericht is bij de boerderij aangekomen.'
          : 'Thank you! Your message has reached the farm.',
      ])
    }
    const sqlite = new Sqlite(server.databasePath, { readonly: true })
    const kept = sqlite.prepare('SELECT language FROM submissions ORDER BY id').pluck().all()
    sqlite.close()
    expect(kept).toEqual(['nl', ...Array(named.length - 1).fill(null)])
  })
})

describe('the language a lead keeps, as a mail to its visitor reads it', () => {
  it('is English when it is not one the site speaks (a restored or edited file), and never makes a header of its own', async () => {
    const reply = { ...replyRow, references: null }
    const settings = {
      from: 'farm@farm.example',
      fromName: 'Farm',
      replyTo: 'o@farm.example',
      farmName: 'Farm',
      timeZone: 'UTC',
    }
    for (const kept of ['fr\r\nBcc: evil@example.com', 'FR', 'fr-FR', '../en', '']) {
      const mail = visitorMail(reply, { message: 'Eggs?', createdAt: new Date(), language: kept }, settings)
      expect(mail.subject).toBe('Re: Your message to Farm')
      expect(mail.headers).toEqual({ 'Content-Language': 'en' })
      const raw = (await new MailComposer(mail).compile().build()).toString()
      expect(raw).toMatch(/^Content-Language: en\r$/m)
      expect(raw).not.toMatch(/evil|^Bcc:/im)
    }
  })
})

describe('the language a tell-me ask names', () => {
  it('is one the farm speaks, spelled as it is written; anything else is the farm’s first', async () => {
    const server = await belgian()
    const ask = (language: string) =>
      fetch(`${server.url}/this-week/tell-me?language=${encodeURIComponent(language)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'product=nothing',
      })
    for (const [asked, said] of [
      ['nl', 'nl'],
      ['fr', 'fr'],
      ['NL', 'fr'],
      ['de', 'fr'],
      ['en-XA', 'fr'],
      ['../nl', 'fr'],
      ['nl\r\nX: 1', 'fr'],
      ['x'.repeat(5000), 'fr'],
    ] as const) {
      const answer = await ask(asked)
      // Updates are off on this farm: the ask is refused, in the language chosen.
      expect(answer.status).toBe(403)
      expect(lang(await answer.text())).toBe(said)
    }
  })
})
