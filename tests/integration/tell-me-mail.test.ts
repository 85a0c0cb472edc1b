// 'Tell me when it's ready' asks the visitor to confirm through the updates' confirm mail: owed in
// the ask's own transaction, so a site killed while that mail is on its way sends it once after a
// restart, never twice and never not at all.
import Sqlite from 'better-sqlite3'
import type { ParsedMail } from 'mailparser'
import { afterEach, expect, it } from 'vitest'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { freePort, tempDatabasePath } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

let mail: MailServer | undefined
afterEach(() => mail?.close())
const start = serverPerTest('SIGKILL')

const askSubject = 'Would you like updates from Bramble Hill Farm?'
const to = (sent: ParsedMail) => (Array.isArray(sent.to) ? '' : (sent.to?.value[0]?.address ?? ''))
const asksTo = (address: string) => mail!.mails.filter((sent) => sent.subject === askSubject && to(sent) === address)

/** A farm taking tell-me asks, its mail through the test's server, on `port`. */
const tellingFarm = (port: number, extra: Record<string, string> = {}) => ({
  OWNER_PASSWORD: ownerPassword,
  FARM_NAME: 'Bramble Hill Farm',
  SMTP_URL: mail!.url,
  NOTIFY_EMAIL: 'owner@bramble.example',
  UPDATES: 'true',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  TRUST_PROXY: 'loopback',
  ...extra,
})
const form = (url: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  })
/** Strawberries, coming soon: a product a visitor may ask to be told about. */
const strawberriesSoon = {
  product: 'strawberries',
  availability: 'coming-soon',
  price: '5',
  unit: 'a punnet',
  note: '',
  readyFrom: '',
}

it(
  'sends the confirm mail of a tell-me ask once across a SIGKILL while it is on its way',
  { timeout: 60_000 },
  async () => {
    let onTheWay = () => {}
    const held = new Promise<void>((resolve) => (onTheWay = resolve))
    let seen = 0
    mail = await startMailServer({
      hold: (sent) => (sent.subject === askSubject && ++seen === 1 ? (onTheWay(), new Promise(() => {})) : null),
    })
    const databasePath = tempDatabasePath()
    const port = await freePort()
    const site = () => start({ port, databasePath, env: tellingFarm(port) })

    const first = await site()
    const cookie = await signInAsOwner(first.url, ownerPassword)
    expect((await form(first.url, '/farm-sales/this-week', strawberriesSoon, { Cookie: cookie })).status).toBe(303)
    const ask = { product: 'strawberries', name: 'Ann Baker', email: 'ann@example.com' }
    expect((await form(first.url, '/this-week/tell-me', ask, { 'X-Forwarded-For': '198.51.100.7' })).status).toBe(200)
    await held
    await first.stop('SIGKILL')
    expect(asksTo('ann@example.com')).toHaveLength(0)

    const second = await site()
    await expect.poll(() => asksTo('ann@example.com').length, { timeout: 20_000 }).toBe(1)
    // A later ask's mail has gone out too (a positive control): Ann's was not sent a second time meanwhile.
    const later = { product: 'strawberries', name: 'Bea Brook', email: 'bea@example.com' }
    expect((await form(second.url, '/this-week/tell-me', later, { 'X-Forwarded-For': '198.51.100.8' })).status).toBe(
      200,
    )
    await expect.poll(() => asksTo('bea@example.com').length, { timeout: 20_000 }).toBe(1)
    expect(asksTo('ann@example.com')).toHaveLength(1)
    const sqlite = new Sqlite(databasePath, { readonly: true })
    expect(sqlite.prepare('SELECT product, email FROM product_waits ORDER BY email').all()).toEqual([
      { product: 'strawberries', email: 'ann@example.com' },
      { product: 'strawberries', email: 'bea@example.com' },
    ])
    sqlite.close()
  },
)

it('answers an ask in the language of the page it came from, and asks for the confirm in it', async () => {
  mail = await startMailServer()
  const port = await freePort()
  const databasePath = tempDatabasePath()
  const site = await start({ port, databasePath, env: tellingFarm(port, { FARM_LANGUAGES: 'fr,en' }) })
  const post = (path: string, fields: Record<string, string>, from: string, cookie?: string) =>
    form(site.url, path, fields, { 'X-Forwarded-For': from, ...(cookie ? { Cookie: cookie } : {}) })
  const cookie = await signInAsOwner(site.url, ownerPassword)
  expect((await post('/farm-sales/this-week', strawberriesSoon, '127.0.0.1', cookie)).status).toBe(303)

  const french = await post(
    '/this-week/tell-me?language=fr',
    { product: 'strawberries', name: 'Marie', email: 'marie@example.fr' },
    '198.51.100.9',
  )
  expect(french.status).toBe(200)
  // Without JavaScript the answer is the tell-me page, in the asking page's language.
  const answered = await french.text()
  expect(answered).toContain('<html lang="fr">')
  expect(answered).toContain(
    'Merci ! Consultez vos e-mails : une fois votre adresse confirmée, nous vous préviendrons quand ils seront prêts (strawberries).',
  )
  await expect
    .poll(() => mail!.mails.filter((sent) => to(sent) === 'marie@example.fr').length, { timeout: 10_000 })
    .toBe(1)
  const ask = mail.mails.find((sent) => to(sent) === 'marie@example.fr')!
  expect(ask.subject).toBe('Souhaitez-vous recevoir les nouvelles de Bramble Hill Farm ?')
  expect(ask.headers.get('content-language')).toBe('fr')

  // English, asked from the English page; a language the farm does not speak is its first.
  const english = await post(
    '/this-week/tell-me?language=en',
    { product: 'strawberries', name: 'Ann', email: 'ann@example.com' },
    '198.51.100.10',
  )
  expect(await english.text()).toContain(
    'Thank you! Check your mail: once you confirm, we will tell you when strawberries are ready.',
  )
  const unspoken = await post('/this-week/tell-me?language=de', { product: 'pommes' }, '198.51.100.11')
  expect(unspoken.status).toBe(400)
  expect(await unspoken.text()).toContain('Ce produit n’est pas en attente : voyez la liste de la semaine.')

  const page = await (await fetch(`${site.url}/this-week/tell-me?product=strawberries&language=fr`)).text()
  expect(page).toContain('<html lang="fr">')
  expect(page).toContain('Strawberries : prévenez-moi quand c’est prêt')
  expect(page).toContain('href="/#this-week"')

  const sqlite = new Sqlite(databasePath, { readonly: true })
  expect(sqlite.prepare('SELECT email, language FROM subscribers ORDER BY id').all()).toEqual([
    { email: 'marie@example.fr', language: 'fr' },
    { email: 'ann@example.com', language: null },
  ])
  sqlite.close()
})
