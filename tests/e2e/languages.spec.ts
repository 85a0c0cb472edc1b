import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import Sqlite from 'better-sqlite3'
import { catalogs } from '#app/language/catalogs.server'
import { languages } from '#app/language/languages'
import { furnishHomePage } from '#tests/support/home-page'
import { htmlErrors } from '#tests/support/html-checker'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { animationsEnded, expect, openHydrated, test, type Page } from './fixtures'

const storedLanguages = (databasePath: string) => {
  const sqlite = new Sqlite(databasePath, { readonly: true })
  try {
    return sqlite.prepare('SELECT name, language FROM submissions ORDER BY id').all()
  } finally {
    sqlite.close()
  }
}

/** Every sentence of the English catalog (two words or more, taking no values) that French says otherwise. */
const frenchSays = catalogs.fr as unknown as Record<string, () => string>
const englishSentences = Object.entries(catalogs.en as unknown as Record<string, () => string>)
  .filter(([key, say]) => say.length === 0 && say().includes(' ') && say() !== frenchSays[key]!())
  .map(([, say]) => say())

/** What the page says: its text, and the words in its fields and labels a reader or a screen reader meets. */
const pageWords = (page: Page) =>
  page.evaluate(() =>
    [
      document.body.innerText,
      ...[...document.querySelectorAll('[placeholder], [aria-label], title')].map(
        (element) => `${element.getAttribute('placeholder') ?? ''} ${element.getAttribute('aria-label') ?? ''}`,
      ),
      document.title,
    ].join('\n'),
  )

/** Every page a visitor reaches but the order's (still English): the home page, the 404, the tell-me page, the links' pages. */
const visitorPages = [
  '/',
  '/pas-ici',
  '/this-week/tell-me',
  '/updates/confirm?token=abc',
  '/updates/unsubscribe?token=abc',
]

test.describe('a French farm, every visitor page', () => {
  test.use({ serverEnv: { FARM_LANGUAGES: 'fr', OWNER_PASSWORD: ownerPassword } })

  for (const [width, height] of [
    [1280, 900],
    [375, 740],
  ] as const) {
    test(`at ${width} px, each is French, with no sentence of the English catalog`, async ({ page, server }) => {
      await furnishHomePage(server.url, await signInAsOwner(server.url, ownerPassword), { photos: 1, products: 4 })
      await page.setViewportSize({ width, height })
      const found: Record<string, string[]> = {}
      for (const path of visitorPages) {
        await page.goto(path)
        await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
        const words = await pageWords(page)
        found[path] = englishSentences.filter((sentence) => words.includes(sentence))
      }
      expect(found).toEqual(Object.fromEntries(visitorPages.map((path) => [path, []])))
    })
  }
})

test.describe('a French farm', () => {
  test.use({ serverEnv: { FARM_LANGUAGES: 'fr' } })

  for (const [width, height] of [
    [1280, 900],
    [375, 740],
  ] as const) {
    test(`at ${width} px, the home page is French, with no sentence of the English catalog`, async ({ page }) => {
      await page.setViewportSize({ width, height })
      await openHydrated(page, '/')
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
      await expect(page.getByRole('heading', { name: 'Nous écrire' })).toBeVisible()
      await expect(page.getByText('Tout droit de nos champs')).toBeVisible()
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bienvenue à Bramble Hill Farm')
      await expect(page.getByLabel('Nom', { exact: true })).toHaveAttribute('placeholder', 'Votre nom')
      await expect(page.getByRole('button', { name: 'Envoyer' })).toBeVisible()
      const words = await pageWords(page)
      expect(englishSentences.filter((sentence) => words.includes(sentence))).toEqual([])
    })
  }

  test('the form says its errors, and thanks, in French', async ({ page, server }) => {
    await openHydrated(page, '/')
    await page.getByRole('button', { name: 'Envoyer' }).click()
    await expect(page.getByText('Le nom est obligatoire')).toBeVisible()
    await expect(page.getByText('L’adresse e-mail est obligatoire')).toBeVisible()
    await page.getByLabel('Nom', { exact: true }).fill('Amélie')
    await page.getByLabel('E-mail').fill('pas-une-adresse')
    await page.getByLabel('Message').fill('Avez-vous des œufs ce samedi ?')
    await page.getByRole('button', { name: 'Envoyer' }).click()
    await expect(page.getByText('Cette adresse e-mail n’est pas valide')).toBeVisible()
    await page.getByLabel('E-mail').fill('amelie@example.fr')
    await page.getByRole('button', { name: 'Envoyer' }).click()
    await expect(page.getByText('Merci ! Votre message est bien arrivé à la ferme.')).toBeVisible()
    expect(storedLanguages(server.databasePath)).toEqual([{ name: 'Amélie', language: 'fr' }])
  })

  test('a page that is not there says so in French', async ({ page }) => {
    const response = await page.goto('/pas-ici')
    expect(response?.status()).toBe(404)
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
    await expect(page.getByRole('heading', { name: 'Page introuvable' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Retour à l’accueil' })).toHaveAttribute('href', '/')
  })

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false })

    test('the server says the errors and the thank-you in French, and keeps the lead as French', async ({
      page,
      server,
    }) => {
      await page.goto('/')
      await page.getByLabel('Nom', { exact: true }).fill('Amélie')
      await page.getByLabel('E-mail').fill('pas-une-adresse')
      await page.getByRole('button', { name: 'Envoyer' }).click()
      await expect(page.getByText('Cette adresse e-mail n’est pas valide')).toBeVisible()
      await expect(page.getByText('Le message est obligatoire')).toBeVisible()
      await page.getByLabel('E-mail').fill('amelie@example.fr')
      await page.getByLabel('Message').fill('Des pommes cette semaine ?')
      await page.getByRole('button', { name: 'Envoyer' }).click()
      await expect(page).toHaveURL(/\/\?sent#contact$/)
      await expect(page.getByRole('status')).toHaveText('Merci ! Votre message est bien arrivé à la ferme.')
      expect(storedLanguages(server.databasePath)).toEqual([{ name: 'Amélie', language: 'fr' }])
    })
  })
})

test.describe('a Belgian farm (French, then Dutch)', () => {
  test.use({ serverEnv: { FARM_LANGUAGES: 'fr,nl' } })

  test.describe('for a Dutch browser', () => {
    test.use({ locale: 'nl-BE' })

    test('/ sends it to /nl/, whose switcher goes to French and back', async ({ page, server }) => {
      await openHydrated(page, '/')
      await expect(page).toHaveURL(`${server.url}/nl/`)
      await expect(page.locator('html')).toHaveAttribute('lang', 'nl')
      await expect(page.getByRole('heading', { name: 'Neem contact op' })).toBeVisible()
      const switcher = page.getByRole('navigation', { name: 'Talen' })
      await expect(switcher.getByRole('link')).toHaveText(['Français', 'Nederlands'])
      await expect(switcher.getByRole('link', { name: 'Nederlands' })).toHaveAttribute('aria-current', 'page')

      await switcher.getByRole('link', { name: 'Français' }).click()
      await expect(page).toHaveURL(`${server.url}/?language=fr`)
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
      await expect(page.getByRole('heading', { name: 'Nous écrire' })).toBeVisible()

      await page.getByRole('navigation', { name: 'Langues' }).getByRole('link', { name: 'Nederlands' }).click()
      await expect(page).toHaveURL(`${server.url}/nl/`)
      await expect(page.locator('html')).toHaveAttribute('lang', 'nl')
    })

    test('the header speaks the page’s language, and its home is the page’s own; on the owner’s pages, English', async ({
      page,
      server,
    }) => {
      await openHydrated(page, '/nl/')
      const main = page.getByRole('navigation', { name: 'Hoofdnavigatie' })
      await expect(main.getByRole('link')).toHaveText(['Home', 'Boerderijverkoop'])
      await expect(main.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/nl/')

      // Moved to the owner's inbox in the page: the header follows it into English.
      await main.getByRole('link', { name: 'Boerderijverkoop' }).click()
      await expect(page).toHaveURL(`${server.url}/farm-sales`)
      await expect(page.getByRole('navigation', { name: 'Main', exact: true }).getByRole('link')).toHaveText([
        'Home',
        'Farm Sales',
      ])
      await expect(page.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', '/')
    })

    test.describe('at 375 px', () => {
      test.use({ viewport: { width: 375, height: 800 } })
      test('the phone’s menu opens and closes in Dutch', async ({ page }) => {
        await openHydrated(page, '/nl/')
        await page.getByRole('button', { name: 'Menu openen' }).click()
        await expect(page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link')).toHaveText([
          'Home',
          'Boerderijverkoop',
        ])
        await page.getByRole('button', { name: 'Menu sluiten' }).click()
        await expect(page.getByRole('navigation', { name: 'Hoofdmenu' })).toBeHidden()
      })
    })

    test('a Dutch visitor’s submission is answered in Dutch and kept as Dutch', async ({ page, server }) => {
      await openHydrated(page, '/nl/')
      await page.getByLabel('Naam').fill('Joost')
      await page.getByLabel('E-mail').fill('joost@example.be')
      await page.getByLabel('Bericht').fill('Hebben jullie zaterdag eieren?')
      await page.getByRole('button', { name: 'Versturen' }).click()
      await expect(page.getByText('Bedankt! Je bericht is bij de boerderij aangekomen.')).toBeVisible()
      expect(storedLanguages(server.databasePath)).toEqual([{ name: 'Joost', language: 'nl' }])
    })

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false })

      test('the form posts to /nl/ and comes back there, in Dutch, kept as Dutch', async ({ page, server }) => {
        await page.goto('/')
        await expect(page).toHaveURL(`${server.url}/nl/`)
        await page.getByRole('button', { name: 'Versturen' }).click()
        await expect(page.getByText('Vul je naam in')).toBeVisible()
        await page.getByLabel('Naam').fill('Joost')
        await page.getByLabel('E-mail').fill('joost@example.be')
        await page.getByLabel('Bericht').fill('Hebben jullie zaterdag eieren?')
        await page.getByRole('button', { name: 'Versturen' }).click()
        await expect(page).toHaveURL(`${server.url}/nl/?sent#contact`)
        await expect(page.getByRole('status')).toHaveText('Bedankt! Je bericht is bij de boerderij aangekomen.')
        expect(storedLanguages(server.databasePath)).toEqual([{ name: 'Joost', language: 'nl' }])
      })
    })
  })

  test('a French browser stays at /, in French, with each language’s address named', async ({ page, server }) => {
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'fr-BE,fr;q=0.9,nl;q=0.5' })
    await openHydrated(page, '/')
    await expect(page).toHaveURL(`${server.url}/`)
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
    const alternates = await page
      .locator('link[rel="alternate"]')
      .evaluateAll((links) => links.map((link) => `${link.getAttribute('hreflang')} ${link.getAttribute('href')}`))
    expect(alternates).toEqual(['fr /', 'nl /nl/', 'x-default /'])
  })
})

test.describe('every language', () => {
  test.use({ serverEnv: { FARM_LANGUAGES: languages.join(',') } })

  test('the home page passes axe and the Nu HTML Checker, with its own lang', async ({ page }) => {
    test.slow()
    const folder = mkdtempSync(join(tmpdir(), 'farm-languages-'))
    const files: string[] = []
    for (const language of languages) {
      const path = language === 'en' ? '/' : `/${language}/`
      const response = await openHydrated(page, path)
      await expect(page.locator('html')).toHaveAttribute('lang', language)
      await animationsEnded(page)
      const { violations } = await new AxeBuilder({ page }).analyze()
      expect(violations.map((violation) => `${language} ${violation.id}`)).toEqual([])
      const file = join(folder, `${language}.html`)
      writeFileSync(file, (await response?.text()) ?? '')
      files.push(file)
    }
    expect(htmlErrors(files)).toEqual([])
  })
})

/** How wide the page is, and each element whose text is cut (clipped or ellipsed) for lack of room. */
const overflowAndCuts = (page: Page) =>
  page.evaluate(() => {
    const cut = [...document.querySelectorAll('body *')].filter((element) => {
      if (element.closest('[aria-hidden="true"]')) return false
      const style = getComputedStyle(element)
      const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis'
      return clips && element.scrollWidth > element.clientWidth + 1
    })
    return {
      page: document.documentElement.scrollWidth,
      cut: cut.map((element) => `${element.tagName} ${element.textContent?.slice(0, 40)}`),
    }
  })

test.describe('the pseudo-language (each message 40 % longer, accented)', () => {
  test.use({
    serverEnv: { FARM_LANGUAGES: 'en-XA', OWNER_PASSWORD: ownerPassword },
    viewport: { width: 375, height: 740 },
  })

  test('overflows nothing and cuts no text at 375 px', async ({ page, server }) => {
    await furnishHomePage(server.url, await signInAsOwner(server.url, ownerPassword), { photos: 2, products: 6 })
    await openHydrated(page, '/')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA')
    await expect(page.getByRole('button', { name: /^\[Šûbmît/ })).toBeVisible()
    expect(await overflowAndCuts(page)).toEqual({ page: 375, cut: [] })
  })

  test('overflows nothing and cuts no text at 375 px on every other visitor page but the order’s', async ({ page }) => {
    const found: Record<string, { page: number; cut: string[] }> = {}
    for (const path of visitorPages.slice(1)) {
      await page.goto(path)
      await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA')
      found[path] = await overflowAndCuts(page)
    }
    expect(found).toEqual(Object.fromEntries(visitorPages.slice(1).map((path) => [path, { page: 375, cut: [] }])))
  })
})
