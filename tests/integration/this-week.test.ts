// This week's pages on the real server, clean in the Nu HTML Checker: the home page with a full
// week's list and its tell-me forms, the editor, the tell-me page and its answer without
// JavaScript, and the updates page proposing a product's news.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Sqlite from 'better-sqlite3'
import { afterAll, expect, it } from 'vitest'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { htmlErrors } from '#tests/support/html-checker'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { freePort } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

let mail: MailServer | undefined
afterAll(() => mail?.close())
const start = serverPerTest()

const week: Array<[string, string, string, string, string, string?]> = [
  ['eggs', 'available', '4', 'a dozen', 'Free-range'],
  ['honey', 'few-left', '8.50', 'a jar', ''],
  ['strawberries', 'coming-soon', '5', 'a punnet', 'Pick your own', '2027-06-07'],
  ['apples', 'sold-out', '2', 'a kilo', ''],
  ['pumpkins', 'out-of-season', '', '', 'Back in October'],
]

it('every page of the week is clean in the Nu HTML Checker', { timeout: 120_000 }, async () => {
  mail = await startMailServer()
  const port = await freePort()
  const server = await start({
    port,
    env: {
      OWNER_PASSWORD: ownerPassword,
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: 'owner@bramble.example',
      UPDATES: 'true',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
  })
  const cookie = await signInAsOwner(server.url, ownerPassword)
  const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields),
      redirect: 'manual',
    })
  for (const [product, availability, price, unit, note, readyFrom = ''] of week) {
    const saved = await form(
      '/farm-sales/this-week',
      { product, availability, price, unit, note, readyFrom },
      { Cookie: cookie },
    )
    expect(saved.status, product).toBe(303)
  }
  const sqlite = new Sqlite(server.databasePath)
  sqlite
    .prepare(
      `INSERT INTO subscribers (email, address_key, name, status, consent, added_by, subscribed_at, created_at)
       VALUES ('ann@example.com', 'ann@example.com', 'Ann', 'subscribed', 'at the stall', 'owner', 1, 1)`,
    )
    .run()
  sqlite
    .prepare(
      "INSERT INTO product_waits (product, email, address_key, asked_at) VALUES ('eggs', 'ann@example.com', 'ann@example.com', 1)",
    )
    .run()
  sqlite.close()

  const dir = mkdtempSync(join(tmpdir(), 'vnu-'))
  const files: string[] = []
  const keep = async (name: string, answer: Response, status = 200) => {
    expect(answer.status, name).toBe(status)
    const file = join(dir, `page ${name}.html`)
    writeFileSync(file, await answer.text())
    files.push(file)
  }
  const home = await fetch(`${server.url}/`)
  const homeHtml = await home.clone().text()
  expect(homeHtml).toContain('This week at the farm')
  expect(homeHtml.match(/Tell me when it’s ready/g)).toHaveLength(3)
  // What is for sale with a price is what the farm offers, in the page's JSON-LD.
  const jsonLd = JSON.parse(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/s.exec(homeHtml)![1]!) as {
    makesOffer: Array<{ itemOffered: { name: string }; price: string; availability: string }>
  }
  expect(jsonLd.makesOffer.map((offer) => [offer.itemOffered.name, offer.price, offer.availability])).toEqual([
    ['Eggs', '4.00', 'https://schema.org/InStock'],
    ['Honey', '8.50', 'https://schema.org/LimitedAvailability'],
  ])
  await keep('home', home)
  await keep('editor', await fetch(`${server.url}/farm-sales/this-week`, { headers: { Cookie: cookie } }))
  const updates = await fetch(`${server.url}/farm-sales/updates`, { headers: { Cookie: cookie } })
  // React parts the text with empty comments where a value meets words.
  expect((await updates.clone().text()).replaceAll('<!-- -->', '')).toContain(
    '1 person asked to be told when eggs are ready.',
  )
  await keep('updates', updates)
  await keep('tell-me', await fetch(`${server.url}/this-week/tell-me?product=strawberries`))
  await keep(
    'tell-me-answer',
    await form('/this-week/tell-me', { product: 'strawberries', name: 'Bea Brook', email: 'bea@example.com' }),
  )
  await keep(
    'tell-me-refused',
    await form('/this-week/tell-me', { product: 'eggs', name: 'Bea', email: 'bea@example.com' }),
    400,
  )
  const refused = await form(
    '/farm-sales/this-week/news',
    { product: 'honey', subject: 'Honey', text: 'Jars at the gate.' },
    { Cookie: cookie },
  )
  expect((await refused.clone().text()).replaceAll('<!-- -->', '')).toContain(
    'Nobody is left to tell about honey this season: whoever was waiting has been told.',
  )
  await keep('news-refused', refused, 409)
  expect(htmlErrors(files)).toEqual([])
})
