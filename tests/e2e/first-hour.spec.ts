// The owner's first hour: claiming the site the way its pages say, being asked who they are when
// OWNER_PASSWORD made them, and finding every owner page from one menu, on a wide screen and a phone.
import AxeBuilder from '@axe-core/playwright'
import { ownerPassword } from '#tests/support/owner'
import { runClaim } from '#tests/support/claim'
import { readRows } from '#tests/support/database'
import { animationsEnded, expect, postSubmission, test, type Page } from './fixtures'

const claimNote = (page: Page) => page.getByTestId('claim-note')

async function expectAxeClean(page: Page) {
  await animationsEnded(page)
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
  ).toEqual([])
}

/** Nothing wider than the screen: no text runs off a phone. */
async function expectNoOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }))
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth)
}

async function fillClaim(page: Page) {
  await page.getByLabel('Your name').fill('Alex Meadow')
  await page.getByLabel('Email').fill('alex@farm.example')
  await page.getByLabel('A password, 12 characters or more').fill('hens under the pear tree')
  await page.getByRole('button', { name: 'Make me the owner' }).click()
}

for (const [width, height] of [
  [1280, 900],
  [375, 740],
] as const) {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(`at ${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
      test.use({ viewport: { width, height }, javaScriptEnabled })

      test('an unclaimed site says so on every owner page, and is claimed from this machine by its link', async ({
        page,
        server,
      }) => {
        await postSubmission(server, { name: 'Ann Baker' })
        for (const path of ['/farm-sales', '/farm-sales/insights', '/farm-sales/settings', '/farm-sales/updates']) {
          await page.goto(path)
          await expect(claimNote(page)).toHaveText(
            'Anyone who opens these pages can read your leads: the site is not claimed yet. Claim it now',
          )
        }
        // The visitor's page is not an owner page: no note there.
        await page.goto('/')
        await expect(claimNote(page)).toHaveCount(0)
        await page.goto('/farm-sales')
        if (javaScriptEnabled) await expectAxeClean(page)
        await expectNoOverflow(page)
        await claimNote(page).getByRole('link', { name: 'Claim it now' }).click()
        await expect(page).toHaveURL(/\/claim$/)
        if (javaScriptEnabled) await expectAxeClean(page)
        await expectNoOverflow(page)
        await fillClaim(page)
        await expect(page).toHaveURL(/\/farm-sales$/)
        await expect(page.getByTestId('submission-card')).toContainText('Ann Baker')
        await expect(claimNote(page)).toHaveCount(0)
        expect(readRows(server.databasePath, 'SELECT name, email, role FROM team')).toEqual([
          { name: 'Alex Meadow', email: 'alex@farm.example', role: 'owner' },
        ])
        // Closed to everyone else now, and /claim says it is taken.
        expect((await fetch(`${server.url}/api/submissions`)).status).toBe(401)
        expect((await fetch(`${server.url}/claim`)).status).toBe(410)
      })

      test('the link `npm run claim` prints claims the site once; a newer one replaces it', async ({
        page,
        server,
      }) => {
        const first = await runClaim(server)
        expect(first.stdout).toContain('Open this link within an hour to claim the site as its first owner:')
        const second = await runClaim(server)
        expect(second.link).not.toBe(first.link)
        await page.goto(first.link!)
        await expect(page.getByRole('alert')).toContainText('That link has been used, or a newer one was printed')
        await page.goto(second.link!)
        await fillClaim(page)
        await expect(page).toHaveURL(/\/farm-sales$/)
        await page.goto(second.link!)
        await expect(page.getByRole('alert')).toHaveText('The site is claimed already: its owners sign in.')
        const after = await runClaim(server)
        expect(after.failed).toBe(true)
        expect(after.stderr).toContain('the site is claimed already')
      })
    })
  }
}

test.describe('with OWNER_PASSWORD', () => {
  test.use({ serverEnv: { OWNER_PASSWORD: ownerPassword } })

  for (const javaScriptEnabled of [true, false]) {
    test(`the first sign-in asks the owner's name and address (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({
      browser,
      server,
    }) => {
      const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled })
      const page = await context.newPage()
      await page.goto('/sign-in')
      await page.getByLabel('Password').fill(ownerPassword)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page).toHaveURL(/\/farm-sales$/)
      await expect(claimNote(page)).toHaveCount(0)
      if (javaScriptEnabled) await expectAxeClean(page)
      const asked = page.getByRole('form', { name: 'Welcome: who are you?' })
      // Without a name: refused in words, nothing stored.
      await asked.getByLabel('Your email').fill('alex@farm.example')
      await asked.getByRole('button', { name: 'Save' }).click()
      await expect(page.getByRole('alert')).toContainText('Not saved:')
      expect(readRows(server.databasePath, 'SELECT email FROM team')).toEqual([{ email: null }])
      await page.getByLabel('Your name').fill('Alex Meadow')
      await page.getByLabel('Your email').fill('alex@farm.example')
      await page.getByRole('button', { name: 'Save' }).click()
      await expect(page).toHaveURL(/\/farm-sales$/)
      await expect(page.getByRole('form', { name: 'Welcome: who are you?' })).toHaveCount(0)
      expect(readRows(server.databasePath, 'SELECT name, email FROM team')).toEqual([
        { name: 'Alex Meadow', email: 'alex@farm.example' },
      ])
      // Mail is not set up: nothing about mail is ticked, and the page says how to turn it on.
      await page.goto('/farm-sales/me')
      await expect(page.getByLabel(/Mail me about each new lead/)).not.toBeChecked()
      await expect(page.getByText('Mail me about each new lead: not yet, the site cannot send mail.')).toBeVisible()
      if (javaScriptEnabled) await expectAxeClean(page)
      await context.close()
    })
  }

  test('without JavaScript a phone lists every owner page at the top, the current one marked', async ({
    browser,
    server,
  }) => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 375, height: 740 },
      javaScriptEnabled: false,
    })
    const page = await context.newPage()
    await page.goto('/sign-in')
    await page.getByLabel('Password').fill(ownerPassword)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/farm-sales$/)
    const menu = page.getByRole('navigation', { name: 'The farm’s office' })
    for (const [label, heading] of [
      ['Pick-ups', 'Pick-ups'],
      ['This week', 'This week at the farm'],
      ['Updates', 'Updates and offers'],
      ['The farm’s page', 'The farm’s page'],
      ['Saved replies', 'Saved replies'],
      ['Photos', 'The farm’s photos'],
      ['Insights', 'Insights'],
      ['Team', 'The team'],
      ['Settings', 'Settings'],
      ['Your page', 'Your page'],
      ['Activity', 'Activity'],
      ['Inbox', 'Farm Sales Data'],
    ] as const) {
      await menu.getByRole('link', { name: label, exact: true }).click()
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
      await expect(menu.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page')
      await expectNoOverflow(page)
    }
    await context.close()
  })

  test('every owner page is in the phone’s menu, the current one marked', async ({ browser, server }) => {
    // Twelve pages, each opened from the menu once hydrated: near the default time on a busy machine.
    test.slow()
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 375, height: 740 } })
    const page = await context.newPage()
    await page.goto('/sign-in')
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
    await page.getByLabel('Password').fill(ownerPassword)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/farm-sales$/)
    const pages = [
      ['Pick-ups', '/farm-sales/pickups', 'Pick-ups'],
      ['This week', '/farm-sales/this-week', 'This week at the farm'],
      ['Updates', '/farm-sales/updates', 'Updates and offers'],
      ['The farm’s page', '/farm-sales/page', 'The farm’s page'],
      ['Saved replies', '/farm-sales/saved-replies', 'Saved replies'],
      ['Photos', '/farm-sales/page/photos', 'The farm’s photos'],
      ['Insights', '/farm-sales/insights', 'Insights'],
      ['Team', '/farm-sales/team', 'The team'],
      ['Settings', '/farm-sales/settings', 'Settings'],
      ['Your page', '/farm-sales/me', 'Your page'],
      ['Activity', '/farm-sales/activity', 'Activity'],
      ['Inbox', '/farm-sales', 'Farm Sales Data'],
    ] as const
    for (const [label, path, heading] of pages) {
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
      await page.getByRole('button', { name: 'Open menu' }).click()
      const menu = page.getByRole('navigation', { name: 'Main menu' })
      await menu.getByRole('link', { name: label, exact: true }).click()
      await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`))
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
      await expectNoOverflow(page)
      await page.getByRole('button', { name: 'Open menu' }).click()
      await expect(menu.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page')
      await expectAxeClean(page)
      await page.getByRole('button', { name: 'Close menu' }).click()
    }
    await context.close()
  })
})
