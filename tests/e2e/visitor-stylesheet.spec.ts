import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { thankYouMessage } from '#app/submissions/contact-fields'
import { furnishHomePage } from '#tests/support/home-page'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { freePort, projectRoot, startServer, type RunningServer } from '#tests/support/server'
import { test as base, expect, farmEnv, fillContactForm, openHydrated, signInContext, type Page } from './fixtures'

// The home page inlines its own smaller stylesheet (app/visitor.css, decision 045): these tests
// fail when the home page uses a class the whole site's sheet styles and the visitor's does not.

const test = base.extend<{ server: RunningServer }>({
  // eslint-disable-next-line no-empty-pattern
  server: async ({}, use) => {
    const port = await freePort()
    const server = await startServer({
      port,
      env: {
        ...farmEnv,
        OWNER_PASSWORD: ownerPassword,
        FARM_TIME_ZONE: 'Europe/London',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
    })
    await furnishHomePage(server.url, await signInAsOwner(server.url, ownerPassword), { photos: 2, products: 12 })
    await use(server)
    await server.stop()
  },
  baseURL: async ({ server }, use) => use(server.url),
})

/** The class names a stylesheet's selectors name, unescaped ('sm:px-6', 'lg:grid-cols-[1.1fr_1fr]'). */
function classesStyledBy(css: string): Set<string> {
  const names = [...css.matchAll(/\.((?:\\.|[\w-])+)/g)].map((match) => match[1]!.replace(/\\(.)/g, '$1'))
  return new Set(names)
}

const wholeSite = () => {
  const assets = join(projectRoot, 'public/build/_assets')
  const name = readdirSync(assets).find((file) => /^tailwind-.*\.css$/.test(file))!
  return classesStyledBy(readFileSync(join(assets, name), 'utf8'))
}

const classesOnPage = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll('[class]')].flatMap((element) => [...element.classList]))

const inlinedSheet = (page: Page) =>
  page.locator('style#stylesheet').evaluate((style) => ({ sheet: style.dataset.sheet, text: style.textContent ?? '' }))

/** Every class the page uses that the whole site's sheet styles, and the visitor's does not. */
async function unstyled(page: Page, used: Set<string>) {
  const { sheet, text } = await inlinedSheet(page)
  expect(sheet).toBe('visitor')
  const visitor = classesStyledBy(text)
  const site = wholeSite()
  return [...used].filter((name) => site.has(name) && !visitor.has(name))
}

test('the home page inlines the visitor’s sheet, and it styles every class the page uses, in every state', async ({
  page,
}) => {
  const used = new Set<string>()
  const collect = async () => (await classesOnPage(page)).forEach((name) => used.add(name))

  await openHydrated(page, '/')
  await collect()
  await page.getByRole('button', { name: /submit/i }).click()
  await expect(page.getByText(/required|enter/i).first()).toBeVisible()
  await collect()
  await fillContactForm(page, {
    name: 'Ana',
    email: 'ana@example.com',
    message: 'Two dozen eggs for Saturday, please.',
  })
  await page.getByRole('button', { name: /submit/i }).click()
  await expect(page.getByText(thankYouMessage).first()).toBeVisible()
  await collect()

  await page.setViewportSize({ width: 375, height: 800 })
  await openHydrated(page, '/')
  await collect()

  expect(used.size).toBeGreaterThan(100)
  expect(await unstyled(page, used)).toEqual([])
})

test('signed in, the home page’s header is styled by the visitor’s sheet too', async ({ page, context, server }) => {
  await signInContext(context, server)
  await openHydrated(page, '/')
  await expect(page.getByRole('link', { name: /farm sales/i }).first()).toBeVisible()
  expect(await unstyled(page, new Set(await classesOnPage(page)))).toEqual([])
})

test('every other page inlines the whole site’s sheet; one reached from the home page in the browser links it', async ({
  page,
  context,
  server,
}) => {
  await signInContext(context, server)
  await page.goto('/farm-sales')
  expect((await inlinedSheet(page)).sheet).toBe('full')

  await openHydrated(page, '/')
  expect(await page.locator('link[rel="stylesheet"][href*="/tailwind-"]').count()).toBe(0)
  await page
    .getByRole('link', { name: /farm sales/i })
    .first()
    .click()
  await expect(page).toHaveURL(/\/farm-sales$/)
  await expect(page.locator('link[rel="stylesheet"][href*="/tailwind-"]')).toHaveCount(1)
  await page.waitForFunction(() => [...document.styleSheets].some((sheet) => sheet.href?.includes('/tailwind-')))
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the form’s refusals from the server are styled by the visitor’s sheet', async ({ page }) => {
    await page.goto('/')
    await fillContactForm(page, { name: 'Ana', email: 'not an address', message: 'Eggs?' })
    await page.getByRole('button', { name: /submit/i }).click()
    await expect(page.locator('[role="alert"], [aria-invalid="true"]').first()).toBeVisible()
    expect(await unstyled(page, new Set(await classesOnPage(page)))).toEqual([])
  })
})
