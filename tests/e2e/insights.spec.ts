import AxeBuilder from '@axe-core/playwright'
import { test as base } from '@playwright/test'
import { openDatabase } from '#app/data/database.server'
import { migrationsFolder } from '#tests/support/database'
import { insightCharts, seedSeason } from '#tests/support/season'
import { startServer, tempDatabasePath, type RunningServer } from '#tests/support/server'
import { expect, farmEnv } from './fixtures'

/** A site whose file holds a season of known leads, replies, subscribers and an update (the shipped defaults). */
const test = base.extend<{ server: RunningServer }>({
  // eslint-disable-next-line no-empty-pattern
  server: async ({}, use) => {
    const databasePath = tempDatabasePath()
    openDatabase(databasePath, migrationsFolder).close()
    seedSeason(databasePath, Date.now())
    const server = await startServer({ databasePath, env: farmEnv })
    await use(server)
    await server.stop()
  },
  baseURL: async ({ server }, use) => use(server.url),
})

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('the owner reads the season in charts, their numbers, another range, and the leads behind a bar', async ({
      page,
    }) => {
      await page.goto('/farm-sales')
      await page.getByRole('link', { name: 'Insights' }).click()
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Insights')
      await expect(page.getByRole('heading', { level: 2 })).toHaveText(insightCharts)
      // The three column charts; the bars beside words that say their numbers are hidden from a screen reader.
      await expect(page.getByRole('main').getByRole('img')).toHaveCount(3)
      const waiting = page.getByRole('region', { name: 'Still waiting for an answer', exact: true })
      await expect(waiting.getByTestId('summary')).toHaveText(
        '4 leads wait for an answer: 1 under a day, 1 from 1 to 3 days and 2 longer.',
      )
      const numbers = waiting.getByRole('region', { name: 'Still waiting for an answer: the numbers' })
      await expect(numbers).toBeHidden()
      await waiting.getByText('Show the numbers').click()
      await expect(numbers.getByRole('row')).toHaveText([
        'WaitingLeads',
        'Under a day1',
        '1 to 3 days1',
        'More than 3 days2',
      ])
      const products = page.getByRole('region', { name: 'Products asked about', exact: true })
      await expect(products.getByRole('link', { name: 'eggs: 5, up from 0' })).toBeVisible()

      await page.getByRole('link', { name: '4 weeks' }).click()
      await expect(page).toHaveURL(/\/farm-sales\/insights\?weeks=4$/)
      await expect(page.getByRole('link', { name: '4 weeks' })).toHaveAttribute('aria-current', 'page')
      const leads = page.getByRole('region', { name: 'What people ask for', exact: true })
      await leads.getByText('Show the numbers').click()
      // A header row and the 4 weeks.
      await expect(
        leads.getByRole('region', { name: 'What people ask for: the numbers' }).getByRole('row'),
      ).toHaveCount(5)
      await expect(leads.getByTestId('summary')).toContainText('8 leads in the last 4 weeks')

      // With JavaScript, the live link catches up on what came since the page was read: within its stretch only.
      const caughtUp = javaScriptEnabled
        ? page.waitForResponse(
            (answer) => answer.url().includes('/api/submissions?') && answer.url().includes('limit=500'),
          )
        : null
      await page
        .getByRole('region', { name: 'Still waiting for an answer', exact: true })
        .getByRole('link', { name: 'More than 3 days: 2' })
        .click()
      await expect(page).toHaveURL(/\/farm-sales\?status=new&before=\d+$/)
      if (caughtUp) expect(new URL((await caughtUp).url()).searchParams.get('before')).toMatch(/^\d+$/)
      await expect(page.getByTestId('submission-card')).toHaveCount(2)
      await expect(page.getByTestId('submission-card').first()).toContainText('Lead h')
      // Leads newer than the stretch are not news: no 'new submissions not in this view'.
      await expect(page.getByText(/not in this view/)).toHaveCount(0)
    })

    test('a range not offered shows 12 weeks, with a note', async ({ page }) => {
      await page.goto('/farm-sales/insights?weeks=7')
      await expect(page.getByRole('status')).toHaveText(
        'There is no such range: showing 12 weeks. Choose 4 weeks, 12 weeks or a year.',
      )
      await expect(page.getByRole('link', { name: '12 weeks' })).toHaveAttribute('aria-current', 'page')
      await expect(
        page.getByRole('region', { name: 'What people ask for', exact: true }).getByTestId('summary'),
      ).toContainText('9 leads in the last 12 weeks')
    })
  })
}

for (const width of [1280, 375]) {
  test(`the insights page is clean in axe at ${width} px, with its numbers shown`, async ({ page }) => {
    // Four full axe runs over the page's charts and tables: long beside other tests on two cores.
    test.slow()
    await page.setViewportSize({ width, height: 900 })
    for (const path of ['/farm-sales/insights', '/farm-sales/insights?weeks=52&x=1']) {
      await page.goto(path)
      expect((await new AxeBuilder({ page }).analyze()).violations, path).toEqual([])
      for (const disclosure of await page.getByText('Show the numbers').all()) await disclosure.click()
      expect((await new AxeBuilder({ page }).analyze()).violations, `${path}, numbers shown`).toEqual([])
    }
    // Readable on a phone: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
  })
}
