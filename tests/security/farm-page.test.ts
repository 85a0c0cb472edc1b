// Attacks on the farm's page: markup and script in every field the owner writes, links that run
// script, oversized fields and bodies, files for fields, other spellings and methods, helpers,
// strangers and the open inbox, a stored row of another shape, and the crawlers' files.
import Sqlite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import { freePort, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import { addPerson } from '#tests/support/team'

const serve = serverPerTest()
const form = { 'Content-Type': 'application/x-www-form-urlencoded' }
const editor = '/farm-sales/page?_data=routes%2Ffarm-sales_.page'

async function ownersSite(env: Record<string, string> = {}) {
  const server = await serve({ env: { OWNER_PASSWORD: ownerPassword, FARM_NAME: 'Bramble Hill Farm', ...env } })
  return { server, owner: await signInAsOwner(server.url, ownerPassword) }
}

/** The editor's form as the page sends it, with these fields changed. */
function pageForm(fields: Record<string, string>, intent = 'publish') {
  return new URLSearchParams({
    intent,
    welcome: 'Welcome to',
    intro: 'Fill out the form to stay updated with our latest products and receive exclusive offers.',
    'card-0-title': '{product} Updates',
    'card-0-text': 'Seasonal produce.',
    'card-1-title': 'Exclusive Offers',
    'card-1-text': 'Early access.',
    ...fields,
  }).toString()
}

const post = (server: RunningServer, cookie: string | null, body: string, path = editor, method = 'POST') =>
  rawRequest(server.url, { method, path, headers: { ...form, ...(cookie ? { Cookie: cookie } : {}) }, body })

const storedPage = (server: RunningServer) =>
  readRows<{ version: string }>(server.databasePath, 'SELECT version FROM farm_page')
const home = async (server: RunningServer) => (await fetch(`${server.url}/`)).text()

describe('what the owner writes is shown as words, never as markup or script', () => {
  it('a story, welcome, address and phone with <script> come out escaped, the JSON-LD too', async () => {
    const { server, owner } = await ownersSite({ PUBLIC_URL: 'https://bramble.example' })
    const script = '<script>alert(1)</script>'
    const answer = await post(
      server,
      owner,
      pageForm({
        welcome: `${script} Welcome to`,
        story: `${script}\n\n<img src=x onerror=alert(2)> [a](https://a.example/"><script>alert(3)</script>)`,
        address: `</script><script>alert(4)</script>\nLong Lane`,
        directions: '<b onmouseover=alert(5)>left</b>',
      }),
    )
    expect(answer.status, answer.text).toBe(204)
    const html = await home(server)
    expect(html).not.toMatch(/<script>alert|<img src=x|<b onmouseover/)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Welcome to')
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;')
    const jsonLd = /<script type="application\/ld\+json"[^>]*>([^<]*)<\/script>/.exec(html)
    expect(jsonLd).not.toBeNull()
    expect(JSON.parse(jsonLd![1]!).address.streetAddress).toBe('</script><script>alert(4)</script>, Long Lane')
    // Every script element on the page is the site’s own: each carries the response’s nonce, the JSON-LD too.
    for (const tag of html.match(/<script[^>]*>/g)!) expect(tag).toContain('nonce="')
  })

  it('refuses links that run script or go nowhere safe, in any spelling, and stores nothing', async () => {
    const { server, owner } = await ownersSite()
    for (const href of [
      'javascript:alert%281%29',
      'JaVaScRiPt:alert%281%29',
      'java%0ascript:alert%281%29',
      'data:text/html;base64,PHNjcmlwdD4=',
      'vbscript:msgbox',
      '//evil.example/',
      '/farm-sales',
      'https:evil.example',
      'https:/evil.example',
    ]) {
      const answer = await post(server, owner, pageForm({ story: `[Prize](${href})` }))
      expect(answer.status, href).toBe(400)
      expect(JSON.parse(answer.text).problems.story, href).toMatch(
        /^The link “Prize” goes nowhere a visitor can safely follow/,
      )
    }
    expect(storedPage(server)).toEqual([])
  })

  it('a link stored unsafe by hand (an old copy, a restore) is shown as its words only', async () => {
    const { server } = await ownersSite()
    const sqlite = new Sqlite(server.databasePath)
    const words = {
      welcome: 'Welcome to',
      intro: 'Hello',
      cards: [
        { title: 'A', text: 'a' },
        { title: 'B', text: 'b' },
      ],
      story: '[Prize](javascript:alert%281%29)',
      hours: { week: [null, null, null, null, null, null, null], exceptions: [] },
      findUs: { address: '', directions: '', phone: '' },
    }
    sqlite
      .prepare("INSERT INTO farm_page (version, words, changed_at) VALUES ('published', ?, ?)")
      .run(JSON.stringify(words), Date.now())
    sqlite.close()
    const html = await home(server)
    expect(html).toContain('>Prize<')
    expect(html).not.toMatch(/href="javascript:/i)
  })

  it('a stored page of another shape shows the spec’s texts', async () => {
    const { server } = await ownersSite()
    const sqlite = new Sqlite(server.databasePath)
    sqlite
      .prepare("INSERT INTO farm_page (version, words, changed_at) VALUES ('published', ?, ?)")
      .run('{"welcome": 42}', Date.now())
    sqlite.close()
    const answer = await fetch(`${server.url}/`)
    expect(answer.status).toBe(200)
    expect(await answer.text()).toContain(
      'Fill out the form to stay updated with our latest products and receive exclusive offers.',
    )
  })
})

describe('sizes and encodings', () => {
  it('refuses each field past its length, and a story past 5,000 characters, storing nothing', async () => {
    const { server, owner } = await ownersSite()
    const cases: Array<[string, number, string]> = [
      ['welcome', 81, 'welcome'],
      ['intro', 401, 'intro'],
      ['card-0-title', 81, 'card-0-title'],
      ['card-1-text', 401, 'card-1-text'],
      ['address', 301, 'address'],
      ['directions', 1_001, 'directions'],
      ['phone', 31, 'phone'],
      ['story', 5_001, 'story'],
      ['exception-note-0', 101, 'exception-0'],
    ]
    for (const [field, length, problem] of cases) {
      const extra: Record<string, string> = field.startsWith('exception') ? { 'exception-from-0': '2030-01-01' } : {}
      const answer = await post(server, owner, pageForm({ [field]: '1'.repeat(length), ...extra }))
      expect(answer.status, field).toBe(400)
      expect(JSON.parse(answer.text).problems[problem], field).toBeDefined()
    }
    expect(storedPage(server)).toEqual([])
  })

  it('a body of megabytes is refused before it is read whole', async () => {
    const { server, owner } = await ownersSite()
    const answer = await post(server, owner, pageForm({ story: 'a'.repeat(3_000_000) }))
    expect([400, 413]).toContain(answer.status)
    expect(storedPage(server)).toEqual([])
  })

  it('a file for a field is refused in words', async () => {
    const { server, owner } = await ownersSite()
    const body = new FormData()
    for (const [name, value] of new URLSearchParams(pageForm({}))) body.set(name, value)
    body.set('story', new Blob(['<script>alert(1)</script>'], { type: 'text/html' }), 'story.html')
    const answer = await fetch(`${server.url}${editor}`, { method: 'POST', headers: { Cookie: owner }, body })
    expect(answer.status).toBe(400)
    expect((await answer.json()).problems.form).toBe('Send the form’s fields as text, not as files.')
    expect(storedPage(server)).toEqual([])
  })

  it('drops control and direction-override letters from what it keeps', async () => {
    const { server, owner } = await ownersSite()
    expect((await post(server, owner, pageForm({ welcome: 'Wel\u202ecome\u0000 to' }))).status).toBe(204)
    expect(await home(server)).toContain('Welcome to Bramble Hill Farm')
  })
})

describe('only an owner writes the page', () => {
  it('a helper is refused in words, on the page and its preview, and changes nothing', async () => {
    const { server, owner } = await ownersSite()
    const helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
    for (const path of ['/farm-sales/page', '/farm-sales/page/preview']) {
      const answer = await fetch(`${server.url}${path}`, { headers: { Cookie: helper } })
      expect(answer.status, path).toBe(403)
    }
    const answer = await post(server, helper, pageForm({ welcome: 'Taken by' }))
    expect(answer.status).toBe(403)
    expect(JSON.parse(answer.text).error).toBe(
      'Only an owner may write the farm’s page; you are signed in as a helper.',
    )
    expect(storedPage(server)).toEqual([])
  })

  it('a stranger is sent to sign in, by every spelling, and changes nothing', async () => {
    const { server } = await ownersSite()
    for (const path of [editor, '/farm-sales/page', '/farm-sales/page/', '/FARM-SALES/page', '/farm-sales/%70age']) {
      for (const intent of ['publish', 'restore', 'discard', 'publish-draft']) {
        const answer = await post(server, null, pageForm({ welcome: 'Taken by' }, intent), path)
        expect([302, 204, 404], `${path} ${intent}`).toContain(answer.status)
        if (answer.status === 204) expect(String(answer.headers['x-remix-redirect'])).toMatch(/^\/sign-in/)
      }
    }
    const preview = await fetch(`${server.url}/farm-sales/page/preview`, { redirect: 'manual' })
    expect(preview.status).toBe(302)
    expect(preview.headers.get('Location')).toMatch(/^\/sign-in/)
    expect(storedPage(server)).toEqual([])
  })

  it('the open inbox (no one signs in yet) says to claim the site first', async () => {
    const server = await serve()
    const page = await fetch(`${server.url}/farm-sales/page`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('The farm’s page is what every visitor reads: claim the site first')
    const answer = await post(server, null, pageForm({ welcome: 'Taken by' }))
    expect(answer.status).toBe(403)
    expect(JSON.parse(answer.text).error).toBe(
      'The farm’s page is what every visitor reads: claim the site first, and sign in to write it.',
    )
    expect(storedPage(server)).toEqual([])
  })
})

describe('methods', () => {
  it('the editor takes only POST for a change, and GET or HEAD to read', async () => {
    const { server, owner } = await ownersSite()
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const body = method === 'DELETE' ? '' : pageForm({ welcome: 'Taken by' })
      const answer = await post(server, owner, body, '/farm-sales/page', method)
      expect(answer.status, method).toBe(405)
      expect(answer.headers.allow).toBe('POST')
    }
    expect(storedPage(server)).toEqual([])
    for (const path of ['/sitemap.xml', '/robots.txt', '/farm-sales/page/preview']) {
      const answer = await post(server, owner, '', path)
      expect(answer.status, path).toBe(405)
    }
  })

  it('an unknown intent, a restore with nothing before and a discard with no draft are refused in words', async () => {
    const { server, owner } = await ownersSite()
    const refused = async (intent: string) => {
      const answer = await post(server, owner, pageForm({}, intent))
      return { status: answer.status, error: JSON.parse(answer.text).problems.form }
    }
    expect(await refused('delete-everything')).toEqual({
      status: 400,
      error: 'That change is not one this page knows.',
    })
    expect(await refused('restore')).toEqual({
      status: 409,
      error: 'There is no earlier version of the page to restore.',
    })
    expect(await refused('discard')).toEqual({ status: 409, error: 'There is no draft to discard.' })
    expect(await refused('publish-draft')).toEqual({ status: 409, error: 'There is no draft to publish.' })
  })
})

describe('what crawlers read', () => {
  it('robots.txt keeps them out of the owner’s pages; the owner’s pages say noindex', async () => {
    const port = await freePort()
    const server = await serve({ port, env: { OWNER_PASSWORD: ownerPassword, PUBLIC_URL: `http://127.0.0.1:${port}` } })
    const robots = await fetch(`${server.url}/robots.txt`)
    expect(robots.headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
    const text = await robots.text()
    for (const path of ['/farm-sales', '/api/', '/sign-in', '/join/', '/set-up/', '/updates/', '/claim']) {
      expect(text).toContain(`Disallow: ${path}\n`)
    }
    expect(text).toContain(`Sitemap: http://127.0.0.1:${port}/sitemap.xml`)
    const owner = await signInAsOwner(server.url, ownerPassword)
    for (const path of ['/farm-sales/page', '/farm-sales/page/preview']) {
      const html = await (await fetch(`${server.url}${path}`, { headers: { Cookie: owner } })).text()
      expect(html, path).toContain('<meta name="robots" content="noindex"/>')
    }
  })

  it('the sitemap names PUBLIC_URL only, never the Host a request chose, and is absent without it', async () => {
    const port = await freePort()
    const server = await serve({ port, env: { PUBLIC_URL: `http://127.0.0.1:${port}` } })
    const answer = await rawRequest(server.url, {
      method: 'GET',
      path: '/sitemap.xml',
      headers: { Host: 'evil.example' },
    })
    expect(answer.status).toBe(200)
    expect(answer.text).toContain(`<loc>http://127.0.0.1:${port}/</loc>`)
    expect(answer.text).not.toContain('evil.example')
    const robots = await rawRequest(server.url, {
      method: 'GET',
      path: '/robots.txt',
      headers: { Host: 'evil.example' },
    })
    expect(robots.text).not.toContain('evil.example')
    const bare = await serve()
    expect((await fetch(`${bare.url}/sitemap.xml`)).status).toBe(404)
    expect(await (await fetch(`${bare.url}/robots.txt`)).text()).not.toContain('Sitemap:')
    expect(await home(bare)).not.toContain('rel="canonical"')
  })
})
