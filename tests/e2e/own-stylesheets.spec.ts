import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { catalogs } from '#app/language/catalogs.server'
import { furnishHomePage } from '#tests/support/home-page'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { setWeekList } from '#tests/support/orders'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { freePort, projectRoot, startServer, type RunningServer } from '#tests/support/server'
import { test as base, expect, farmEnv, fillContactForm, openHydrated, signInContext, type Page } from './fixtures'

// The home page and the inbox inline their own smaller stylesheets (app/visitor.css, app/inbox.css;
// decisions 045, 049): these tests fail when such a page uses a class the whole site's sheet styles
// and its own does not, in the states a visitor or the team meets.

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

/** Every class the page uses that the whole site's sheet styles, and the page's own (`sheet`) does not. */
async function unstyled(page: Page, used: Set<string>, sheet: 'visitor' | 'inbox' = 'visitor') {
  const inlined = await inlinedSheet(page)
  expect(inlined.sheet).toBe(sheet)
  const own = classesStyledBy(inlined.text)
  const site = wholeSite()
  return [...used].filter((name) => site.has(name) && !own.has(name))
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
  await expect(page.getByText(catalogs.en.thankYou()).first()).toBeVisible()
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
  await page.goto('/farm-sales/pickups')
  expect((await inlinedSheet(page)).sheet).toBe('full')
  await page.goto('/farm-sales')
  expect((await inlinedSheet(page)).sheet).toBe('inbox')

  await openHydrated(page, '/')
  expect(await page.locator('link[rel="stylesheet"][href*="/tailwind-"]').count()).toBe(0)
  await page
    .getByRole('link', { name: /farm sales/i })
    .first()
    .click()
  await expect(page).toHaveURL(/\/farm-sales$/)
  await expect(page.locator('link[rel="stylesheet"][href*="/tailwind-"]')).toHaveCount(1)
  await page.waitForFunction(() => [...document.styleSheets].some((sheet) => sheet.href?.includes('/tailwind-')))

  // From the inbox, whose own sheet is smaller, another owner page links the whole one too.
  await openHydrated(page, '/farm-sales')
  expect(await page.locator('link[rel="stylesheet"][href*="/tailwind-"]').count()).toBe(0)
  await page.getByRole('link', { name: 'Pick-ups' }).first().click()
  await expect(page).toHaveURL(/\/farm-sales\/pickups$/)
  await expect(page.locator('link[rel="stylesheet"][href*="/tailwind-"]')).toHaveCount(1)
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

const leads = [
  'Could I have two dozen eggs and 2 jars of honey for Saturday morning?',
  'A punnet of strawberries for Friday, please.',
  'Any honey left for Saturday? Two jars please.',
  'Can we visit the farm with the children on Saturday morning?',
  'The apples I bought last week were bruised, not happy at all.',
  'Lovely pumpkins, thank you! Will you have more next month?',
]

/** Leads sent through the form's API, back once each has its analysis (read as the owner). */
async function sendLeads(server: RunningServer) {
  for (const [n, message] of leads.entries()) {
    const sent = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Customer ${n + 1}`, email: `customer${n + 1}@example.com`, message }),
    })
    expect(sent.status).toBe(201)
  }
  const cookie = await signInAsOwner(server.url, ownerPassword)
  await expect
    .poll(async () => {
      const listed = (await (
        await fetch(`${server.url}/api/submissions`, { headers: { Cookie: cookie } })
      ).json()) as Array<{
        awaitingAnalysis: boolean
      }>
      return listed.filter((lead) => !lead.awaitingAnalysis).length
    })
    .toBe(leads.length)
}

test.describe('the inbox', () => {
  const inboxTest = base.extend<{ mail: MailServer; server: RunningServer }>({
    // eslint-disable-next-line no-empty-pattern
    mail: async ({}, use) => {
      const mail = await startMailServer()
      await use(mail)
      await mail.close()
    },
    server: async ({ mail }, use) => {
      const server = await startServer({
        env: { ...farmEnv, OWNER_PASSWORD: ownerPassword, SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@bramble.example' },
      })
      setWeekList(server.databasePath, [
        { product: 'eggs', priceCents: 400, unit: 'a dozen', stock: 1 },
        { product: 'honey', priceCents: 550, unit: 'a jar', stock: null },
        { product: 'strawberries', priceCents: 500, unit: 'a punnet', stock: null, availability: 'sold-out' },
      ])
      await use(server)
      await server.stop()
    },
    baseURL: async ({ server }, use) => use(server.url),
    context: async ({ context, server }, use) => {
      await signInContext(context, server)
      await use(context)
    },
  })

  inboxTest(
    'inlines the inbox’s sheet, and it styles every class the inbox uses, in every state',
    async ({ page, server }) => {
      const used = new Set<string>()
      const collect = async () => (await classesOnPage(page)).forEach((name) => used.add(name))
      await openHydrated(page, '/farm-sales')
      await collect()
      await sendLeads(server)
      await openHydrated(page, '/farm-sales')
      await collect()
      const card = page
        .getByTestId('submission-card')
        .filter({ has: page.getByTestId('order-read') })
        .first()
      await card.locator('summary', { hasText: 'Confirm…' }).click()
      await card.getByRole('button', { name: 'Draft the confirmation' }).click()
      await expect(card.getByRole('button', { name: 'Confirm and send' })).toBeVisible()
      await collect()
      const other = page
        .getByTestId('submission-card')
        .filter({ has: page.getByTestId('order-read') })
        .nth(1)
      await other.locator('summary', { hasText: 'Decline…' }).click()
      await collect()
      const plain = page.getByTestId('submission-card').last()
      await plain.locator('summary', { hasText: 'Reply' }).click()
      await plain.locator('summary', { hasText: 'More' }).click()
      await collect()
      await page.setViewportSize({ width: 375, height: 800 })
      await page.locator('summary', { hasText: /search and filter/i }).click()
      await page.getByRole('button', { name: /menu/i }).first().click()
      await collect()

      expect(used.size).toBeGreaterThan(150)
      expect(await unstyled(page, used, 'inbox')).toEqual([])
    },
  )

  inboxTest.describe('without JavaScript', () => {
    inboxTest.use({ javaScriptEnabled: false })
    inboxTest('the inbox’s cards and forms are styled by the inbox’s sheet', async ({ page, server }) => {
      await sendLeads(server)
      await page.goto('/farm-sales')
      expect(await unstyled(page, new Set(await classesOnPage(page)), 'inbox')).toEqual([])
    })
  })
})
