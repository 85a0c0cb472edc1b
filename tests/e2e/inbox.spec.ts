import { seedSubmissions } from '#tests/support/seed'
import { startServer } from '#tests/support/server'
import { expect, farmEnv, openHydrated, postSubmission, test, type Page } from './fixtures'

const seeded = 130
const cardNames = (page: Page) =>
  page.getByTestId('submission-card').getByRole('heading', { level: 2 }).allTextContents()
const newestFirst = Array.from({ length: seeded }, (_, index) => seeded - 1 - index)

test.beforeEach(({ server }) => seedSubmissions(server.databasePath, seeded))

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('shows 25 at a time and reaches every submission by the Older submissions link', async ({ page }) => {
    await page.goto('/farm-sales')
    const seen: string[] = []
    for (;;) {
      const names = await cardNames(page)
      expect(names.length).toBeLessThanOrEqual(25)
      seen.push(...names)
      const older = page.getByRole('link', { name: 'Older leads' })
      if ((await older.count()) === 0) break
      // Read the next page only once the browser is on it, not while the last one still shows.
      const next = new URL((await older.getAttribute('href'))!, page.url())
      await older.click()
      await page.waitForURL(next.href)
    }
    expect(seen).toHaveLength(seeded)
    expect(new Set(seen).size).toBe(seeded)
    expect(seen.map((name) => Number(name.split(' ').at(-1)))).toEqual(newestFirst)
  })

  test('searches and filters with the form, keeping the view in the address and in the Older link', async ({
    page,
  }) => {
    await page.goto('/farm-sales')
    await page.getByLabel('What about').selectOption('wholesale')
    await page.getByRole('button', { name: 'Show' }).click()
    await expect(page).toHaveURL(/intent=wholesale/)
    const cards = page.getByTestId('submission-card')
    await expect(cards.first()).toContainText('40 dozen eggs')
    for (const text of await cards.allTextContents()) expect(text).toContain('40 dozen eggs')
    await expect(page.getByLabel('What about')).toContainText('Wholesale 22')

    await page.getByRole('searchbox', { name: 'Search' }).fill('corner-shop.co.uk')
    await page.getByRole('button', { name: 'Show' }).click()
    await expect(page).toHaveURL(/q=corner-shop.co.uk/)
    for (const text of await cards.allTextContents()) expect(text).toContain('@corner-shop.co.uk')

    await page.goto('/farm-sales?urgency=high&q=nobody')
    await expect(page.getByText('No leads match this view.')).toBeVisible()
    await page.getByRole('link', { name: 'Clear search and filters' }).click()
    await expect(cards).toHaveCount(25)
  })
})

test('with JavaScript, scrolling to the end loads every older page in place, once each', async ({ page }) => {
  await openHydrated(page, '/farm-sales')
  await expect(page.getByTestId('submission-card')).toHaveCount(25)
  for (let shown = 25; shown < seeded;) {
    await page.getByRole('link', { name: 'Older leads' }).scrollIntoViewIfNeeded()
    await expect.poll(async () => (await cardNames(page)).length).toBeGreaterThan(shown)
    shown = (await cardNames(page)).length
  }
  const names = await cardNames(page)
  expect(names.map((name) => Number(name.split(' ').at(-1)))).toEqual(newestFirst)
  await expect(page.getByRole('link', { name: 'Older leads' })).toHaveCount(0)
  expect(page.url()).not.toContain('before=')
})

test('an older page still on its way when the live link reconnects is dropped: no stretch of pages is skipped', async ({
  page,
  server,
}) => {
  await openHydrated(page, '/farm-sales')
  await page.getByRole('link', { name: 'Older leads' }).scrollIntoViewIfNeeded()
  // 25 on the page, then the API's first older page of 100.
  await expect.poll(async () => (await cardNames(page)).length).toBe(125)
  // The last older page is asked for and held on its way while the server restarts.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let holding = true
  const asked = new Promise<void>((resolve) =>
    page.route(/\/api\/submissions\?.*before=/, async (route) => {
      if (!holding) return route.continue()
      holding = false
      resolve()
      await held
      await route.continue()
    }),
  )
  await page.getByRole('link', { name: 'Older leads' }).scrollIntoViewIfNeeded()
  await asked
  const socket = page.waitForEvent('websocket')
  // Waited for from before the link reconnects: the page may be read again the moment it does.
  const readAgain = page.waitForResponse((response) => response.url().includes('_data=routes%2Ffarm-sales'), {
    timeout: 15_000,
  })
  expect(await server.stop('SIGTERM')).toBe(0)
  const restarted = await startServer({ databasePath: server.databasePath, port: server.port, env: farmEnv })
  try {
    // Reconnected (the page backs off while the server is down), the page is read again and
    // the older pages start again from the first; only then does the held answer arrive.
    await socket
    await readAgain
    release()
    // To the end of the list, for as long as it offers older submissions.
    const older = page.getByRole('link', { name: 'Older leads' })
    await expect
      .poll(async () => {
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
        return older.count()
      })
      .toBe(0)
    const names = await cardNames(page)
    expect(names.map((name) => Number(name.split(' ').at(-1)))).toEqual(newestFirst)
  } finally {
    await restarted.stop()
  }
})

test('a failed older page shows an error with Retry, which loads it', async ({ page }) => {
  await page.route(/\/api\/submissions\?.*before=/, (route) => route.abort())
  await openHydrated(page, '/farm-sales')
  await page.getByRole('link', { name: 'Older leads' }).scrollIntoViewIfNeeded()
  await expect(page.getByRole('alert')).toHaveText('Older leads could not be loaded. Retry')
  await page.unroute(/\/api\/submissions\?.*before=/)
  await page.getByRole('button', { name: 'Retry' }).click()
  await expect.poll(async () => (await cardNames(page)).length).toBeGreaterThan(25)
})

test('typing a search updates the list and the address after a pause; back returns to the inbox', async ({ page }) => {
  await openHydrated(page, '/farm-sales')
  await page.getByRole('searchbox', { name: 'Search' }).pressSequentially('pumpk', { delay: 40 })
  await expect(page).toHaveURL(/q=pumpk/)
  const cards = page.getByTestId('submission-card')
  await expect(cards.first()).toContainText('Lovely pumpkins')
  for (const text of await cards.allTextContents()) expect(text).toContain('pumpkins')
  await page.reload()
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('pumpk')
  await expect(cards.first()).toContainText('Lovely pumpkins')
})

test('a live arrival outside the view is not listed, and is counted with a way back to everything', async ({
  page,
  server,
}) => {
  const opened = page.waitForEvent('websocket')
  await openHydrated(page, '/farm-sales?intent=visit')
  await opened
  await postSubmission(server, { name: 'Honey Hal', message: 'Any honey left? I would like two jars.' })
  await expect(page.getByRole('status')).toHaveText('1 new lead not in this view. Clear search and filters')
  await expect(page.getByText('Honey Hal')).toHaveCount(0)
  await postSubmission(server, { name: 'Visiting Vi', message: 'Can we visit the farm on Sunday with the children?' })
  await expect(page.getByTestId('submission-card').first()).toContainText('Visiting Vi')
  await page.getByRole('link', { name: 'Clear search and filters' }).click()
  await expect(page.getByTestId('submission-card').first()).toContainText('Visiting Vi')
  await expect(page.getByTestId('submission-card').nth(1)).toContainText('Honey Hal')
})

test('the first page is fully shown once hydrated: all 25 cards, each at full opacity', async ({ page }) => {
  // How soon is npm run bench's row 'first page of 25 cards fully shown after hydration'.
  await openHydrated(page, '/farm-sales')
  const cards = page.getByTestId('submission-card')
  await expect(cards).toHaveCount(25)
  for (const card of await cards.all()) await expect(card).toHaveCSS('opacity', '1')
})
