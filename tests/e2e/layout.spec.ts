import { animationsEnded, expect, farmEnv, openHydrated, postSubmission, test } from './fixtures'

test('the header shows the brand and marks the current page', async ({ page, server }) => {
  await openHydrated(page, '/')
  const header = page.getByRole('banner')
  const brand = header.getByRole('link', { name: farmEnv.FARM_NAME })
  await expect(brand).toHaveAttribute('href', '/')
  await expect(brand.locator('svg')).toBeVisible()
  await expect(header).toHaveCSS('position', 'fixed')

  const nav = page.getByRole('navigation', { name: 'Main', exact: true })
  await expect(nav.getByRole('link')).toHaveText(['Home', 'Farm Sales'])
  await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page')
  await expect(nav.getByRole('link', { name: 'Farm Sales' })).not.toHaveAttribute('aria-current')

  await nav.getByRole('link', { name: 'Farm Sales' }).click()
  await expect(page).toHaveURL(`${server.url}/farm-sales`)
  await expect(nav.getByRole('link', { name: 'Farm Sales' })).toHaveAttribute('aria-current', 'page')
  await expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current')
})

test('the header turns translucent with blur and shadow once scrolled past 10 px, and back at the top', async ({
  page,
  server,
}) => {
  for (let i = 0; i < 6; i++) await postSubmission(server, { name: `Visitor ${i}` })
  await page.setViewportSize({ width: 1280, height: 600 })
  await openHydrated(page, '/farm-sales')
  const header = page.getByRole('banner')
  await expect(header).toHaveAttribute('data-scrolled', 'false')
  await expect(header).toHaveCSS('box-shadow', 'none')

  await page.evaluate(() => window.scrollTo(0, 11))
  await expect(header).toHaveAttribute('data-scrolled', 'true')
  await expect(header).toHaveCSS('backdrop-filter', /blur/)
  await expect(header).not.toHaveCSS('box-shadow', 'none')
  await expect(header).toHaveCSS('background-color', /rgba\(.+, 0\.\d+\)|oklab\(.+\/ 0\.\d+\)/)

  // 10 px is not past 10 px: scrolled back to it, the header is solid again (waited for, not slept on).
  await page.evaluate(() => window.scrollTo(0, 10))
  await expect(header).toHaveAttribute('data-scrolled', 'false')
  await expect(header).toHaveCSS('box-shadow', 'none')

  await page.evaluate(() => window.scrollTo(0, 11))
  await expect(header).toHaveAttribute('data-scrolled', 'true')
  await page.evaluate(() => window.scrollTo(0, 0))
  await expect(header).toHaveAttribute('data-scrolled', 'false')
})

test('on a small screen the links sit behind a menu toggle', async ({ page, server }) => {
  await page.setViewportSize({ width: 375, height: 740 })
  await openHydrated(page, '/')
  await expect(page.getByRole('navigation', { name: 'Main', exact: true })).toBeHidden()
  const toggle = page.getByRole('button', { name: 'Open menu' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(toggle).toHaveAttribute('aria-controls', 'mobile-menu')
  const menu = page.locator('#mobile-menu')
  await expect(menu).toBeHidden()

  await toggle.click()
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true')
  await expect(menu).toBeVisible()
  await expect(menu.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page')

  await page.getByRole('button', { name: 'Close menu' }).click()
  await expect(menu).toBeHidden()

  await page.getByRole('button', { name: 'Open menu' }).click()
  await menu.getByRole('link', { name: 'Farm Sales' }).click()
  await expect(page).toHaveURL(`${server.url}/farm-sales`)
  await expect(menu).toBeHidden()
  await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false')
})

test('an unknown path answers 404 with a way home and logs the path', async ({ page, server }) => {
  const logged: string[] = []
  page.on('console', (message) => logged.push(message.text()))
  const response = await openHydrated(page, '/seeds/heirloom-tomatoes')
  expect(response?.status()).toBe(404)
  await expect(page).toHaveTitle('Page Not Found')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found')
  await expect(page.getByText("Sorry, we couldn't find the page you're looking for.")).toBeVisible()
  await expect.poll(() => logged.join('\n')).toContain('/seeds/heirloom-tomatoes')

  await page.getByRole('link', { name: 'Return to Home' }).click()
  await expect(page).toHaveURL(`${server.url}/`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome to ${farmEnv.FARM_NAME}`)
})

test('an error while loading a page shows Unexpected Application Error! with its text', async ({ page }) => {
  await openHydrated(page, '/')
  await page.route(/\/farm-sales\?_data=/, (route) =>
    route.fulfill({
      status: 500,
      headers: { 'Content-Type': 'application/json', 'X-Remix-Error': 'yes' },
      body: JSON.stringify({ message: 'The barn door is stuck' }),
    }),
  )
  await page.getByRole('link', { name: 'Farm Sales' }).first().click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unexpected Application Error!')
  await expect(page.getByText('The barn door is stuck')).toBeVisible()
})

for (const path of ['/', '/farm-sales', '/no-such-page']) {
  test(`${path} fits a 320 px screen and does not shift while loading`, async ({ page, server }) => {
    await postSubmission(server, { name: 'Wilhelmina Featherstonehaugh', message: 'A'.repeat(300) })
    await page.setViewportSize({ width: 320, height: 640 })
    await page.addInitScript(() => {
      const shifts: Array<{ at: number; value: number }> = []
      ;(window as unknown as { shifts: typeof shifts }).shifts = shifts
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          shifts.push({ at: entry.startTime, value: (entry as unknown as { value: number }).value })
      }).observe({ type: 'layout-shift', buffered: true })
    })
    await openHydrated(page, path)
    // Loaded: hydrated, nothing fetched for half a second, every entrance ended.
    await page.waitForLoadState('networkidle')
    await animationsEnded(page)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
    // The control: a shift made on purpose now is counted; shifts are reported in order, so once it
    // is, any made while loading has been too.
    const controlAt = await page.evaluate(() => {
      const at = performance.now()
      const block = document.createElement('div')
      block.style.height = '200px'
      document.body.prepend(block)
      return at
    })
    const shifts = () =>
      page.evaluate(() => (window as unknown as { shifts: Array<{ at: number; value: number }> }).shifts)
    await expect
      .poll(async () =>
        (await shifts()).filter((shift) => shift.at >= controlAt).reduce((sum, shift) => sum + shift.value, 0),
      )
      .toBeGreaterThan(0.01)
    const whileLoading = (await shifts()).filter((shift) => shift.at < controlAt)
    expect(whileLoading.reduce((sum, shift) => sum + shift.value, 0)).toBeLessThan(0.01)
  })
}
