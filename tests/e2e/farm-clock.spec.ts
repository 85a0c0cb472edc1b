import Sqlite from 'better-sqlite3'
import { test as base, type Browser } from '@playwright/test'
import { runClaim } from '#tests/support/claim'
import { readRows } from '#tests/support/database'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { startServer, type RunningServer } from '#tests/support/server'
import { expect, farmEnv, openHydrated, test, type Page } from './fixtures'

const dayMs = 24 * 60 * 60 * 1000
const auckland = 'Pacific/Auckland'

/** The last Sunday, 23:30 UTC, before now: Monday lunchtime in Auckland. */
function lastSundayNight(now = Date.now()): number {
  const today = new Date(now)
  const sunday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - today.getUTCDay(), 23, 30)
  return sunday <= now ? sunday : sunday - 7 * dayMs
}

/** A moment in Auckland as Intl reads it: its weekday, day and time as the site writes them. */
function inAuckland(ms: number) {
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone: auckland, ...options }).format(ms)
  const date = `${part({ day: 'numeric' })} ${part({ month: 'short' })} ${part({ year: 'numeric' })}`
  const time = part({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  return { weekday: part({ weekday: 'short' }), date, time, shown: `${date}, ${time}` }
}

function storeLead(server: RunningServer, at: number) {
  const sqlite = new Sqlite(server.databasePath)
  sqlite
    .prepare(
      "INSERT INTO submissions (name, email, message, created_at) VALUES ('Late Larry', 'late@example.com', 'Eggs?', ?)",
    )
    .run(at)
  sqlite.close()
}

/** What the page said went wrong in its console or its scripts: a page the browser took over from the server's must say nothing. */
function problemsOf(page: Page) {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || /did not match|hydrat/i.test(message.text())) problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  return problems
}

const storedZone = (server: RunningServer) =>
  readRows<{ value: string }>(server.databasePath, "SELECT value FROM farm_settings WHERE key = 'FARM_TIME_ZONE'")

test.describe('with FARM_TIME_ZONE=Pacific/Auckland, seen from a browser in New York', () => {
  test.use({ serverEnv: { FARM_TIME_ZONE: auckland }, timezoneId: 'America/New_York' })

  for (const javaScriptEnabled of [true, false]) {
    test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
      test.use({ javaScriptEnabled })

      test('a lead of Sunday 23:30 UTC shows Monday’s local time on its card and counts in Monday’s week', async ({
        page,
        server,
      }) => {
        const at = lastSundayNight()
        const local = inAuckland(at)
        expect(local.weekday).toBe('Mon')
        storeLead(server, at)
        const problems = problemsOf(page)
        // Two days on: the card, once the browser has it, says the day by its name.
        if (javaScriptEnabled) await page.clock.install({ time: at + 2 * dayMs })
        for (const width of [1280, 375]) {
          await page.setViewportSize({ width, height: 900 })
          if (javaScriptEnabled) await openHydrated(page, '/farm-sales')
          else await page.goto('/farm-sales')
          const time = page.getByTestId('submission-card').locator('time').first()
          await expect(time).toHaveAttribute('datetime', new Date(at).toISOString())
          await expect(time).toHaveAttribute('title', `${local.shown} Auckland time`)
          await expect(time).toHaveText(javaScriptEnabled ? `Mon ${local.time}` : local.shown)
          await expect(page.getByTestId('times-on')).toHaveText('Times are Auckland time.')

          if (javaScriptEnabled) await openHydrated(page, '/farm-sales/insights')
          else await page.goto('/farm-sales/insights')
          await expect(page.getByText('weeks start on Monday, Auckland time;')).toBeVisible()
          const chart = page.getByRole('region', { name: 'What people ask for' })
          await chart.getByText('Show the numbers').click()
          await expect(chart.getByRole('row', { name: new RegExp(`^${local.date} 1 `) })).toBeVisible()
        }
        expect(problems).toEqual([])
      })
    })
  }
})

/** A site whose clock is not chosen yet, with OWNER_PASSWORD. */
const unchosen = base.extend<{ server: RunningServer }>({
  // Playwright reads a fixture's needs from its first parameter's pattern: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  server: async ({}, use) => {
    const server = await startServer({ env: { ...farmEnv, OWNER_PASSWORD: password } })
    await use(server)
    await server.stop()
  },
  baseURL: async ({ server }, use) => use(server.url),
})

async function signInFrom(
  browser: Browser,
  server: RunningServer,
  options: { timezoneId: string; javaScriptEnabled: boolean },
) {
  const context = await browser.newContext({ baseURL: server.url, ...options })
  const page = await context.newPage()
  if (options.javaScriptEnabled) await openHydrated(page, '/sign-in')
  else await page.goto('/sign-in')
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/farm-sales$/)
  await context.close()
}

unchosen(
  'the first sign-in with JavaScript sets the farm’s clock from the browser; a later one from elsewhere does not',
  async ({ browser, server }) => {
    await signInFrom(browser, server, { timezoneId: auckland, javaScriptEnabled: true })
    await expect.poll(() => storedZone(server)).toEqual([{ value: auckland }])
    await signInFrom(browser, server, { timezoneId: 'Europe/London', javaScriptEnabled: true })
    expect(storedZone(server)).toEqual([{ value: auckland }])
  },
)

unchosen('a sign-in without JavaScript sends no zone, and leaves the clock as it is', async ({ browser, server }) => {
  await signInFrom(browser, server, { timezoneId: auckland, javaScriptEnabled: false })
  expect(storedZone(server)).toEqual([])
})

test.describe('claiming the site by its link, from a browser in Auckland', () => {
  test.use({ timezoneId: auckland })

  test('sets the farm’s clock to the browser’s own', async ({ page, server }) => {
    const { link } = await runClaim(server)
    await openHydrated(page, link!)
    await page.getByLabel('Your name').fill('Alex Meadow')
    await page.getByLabel('Email').fill('alex@farm.example')
    await page.getByLabel('A password, 12 characters or more').fill('hens under the pear tree')
    await page.getByRole('button', { name: 'Make me the owner' }).click()
    await expect(page).toHaveURL(/\/farm-sales$/)
    await expect.poll(() => storedZone(server)).toEqual([{ value: auckland }])
  })
})

for (const javaScriptEnabled of [true, false]) {
  unchosen.describe(`the settings page, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    unchosen.use({ javaScriptEnabled })

    unchosen(
      'changes the farm’s clock, and refuses a zone that is none, saying why beside it',
      async ({ page, server }) => {
        const [name, value] = (await signInAsOwner(server.url, password)).split('=') as [string, string]
        await page.context().addCookies([{ name, value, url: server.url }])
        if (javaScriptEnabled) await openHydrated(page, '/farm-sales/settings')
        else await page.goto('/farm-sales/settings')
        const farm = page.locator('#farm')
        const field = farm.getByLabel('The farm’s time zone')
        await expect(field).toHaveValue('')
        await field.fill('Mars/Olympus_Mons')
        await farm.getByRole('button', { name: 'Save the farm' }).click()
        await expect(
          page
            .locator('#farm')
            .getByText(
              'Must be a time zone as computers name them, such as Europe/London or Pacific/Auckland, not "Mars/Olympus_Mons"',
            ),
        ).toBeVisible()
        await expect(page.locator('#farm').getByLabel('The farm’s time zone')).toHaveAttribute('aria-invalid', 'true')
        expect(storedZone(server)).toEqual([])
        await page.locator('#farm').getByLabel('The farm’s time zone').fill('Europe/London')
        await page.locator('#farm').getByRole('button', { name: 'Save the farm' }).click()
        await expect(
          page.locator('#farm').getByText('Saved. It is used from the next mail, push or page.'),
        ).toBeVisible()
        await expect(page.locator('#farm').getByLabel('The farm’s time zone')).toHaveValue('Europe/London')
        expect(storedZone(server)).toEqual([{ value: 'Europe/London' }])
      },
    )
  })
}
