import { readFileSync } from 'node:fs'
import Sqlite from 'better-sqlite3'
import { parseCsv } from '#tests/support/csv-parse'
import { storedRows } from '#tests/support/database'
import type { RunningServer } from '#tests/support/server'
import { expect, openHydrated, postSubmission, test, type Page } from './fixtures'

test('with JavaScript, marking a card handled shows at once, is stored, and reaches another open inbox live', async ({
  page,
  browser,
  server,
}) => {
  await postSubmission(server, { name: 'Older Olive' })
  await postSubmission(server, { name: 'Newer Ned' })
  const other = await browser.newPage()
  await openHydrated(other, `${server.url}/farm-sales`)
  await openHydrated(page, '/farm-sales')
  await expect(page.getByTestId('new-count')).toHaveText('2 new leads to deal with')
  // Its name reads "Farm Sales, 2 new", not the words run together.
  await expect(page.getByRole('link', { name: 'Farm Sales, 2 new', exact: true })).toBeVisible()

  // Each tab takes the change once, from the answer or the live frame: no loader runs again.
  const asked: string[] = []
  for (const tab of [page, other]) tab.on('request', (request) => asked.push(`${request.method()} ${request.url()}`))
  const ned = page.getByTestId('submission-card').filter({ hasText: 'Newer Ned' })
  await ned.getByRole('button', { name: 'Mark handled' }).click()
  await expect(ned.getByRole('button', { name: 'Mark as new' })).toBeVisible()
  await expect(ned.getByText('Handled', { exact: true })).toBeVisible()
  await expect
    .poll(() => storedRows(server.databasePath).map((row) => [row.name, row.status]))
    .toEqual([
      ['Older Olive', 'new'],
      ['Newer Ned', 'handled'],
    ])
  await expect(page.getByTestId('new-count')).toHaveText('1 new lead to deal with')
  await expect(page.getByRole('link', { name: 'Farm Sales, 1 new', exact: true })).toBeVisible()

  const elsewhere = other.getByTestId('submission-card').filter({ hasText: 'Newer Ned' })
  await expect(elsewhere.getByText('Handled', { exact: true })).toBeVisible({ timeout: 1_000 })
  await expect(other.getByTestId('new-count')).toHaveText('1 new lead to deal with')
  await expect(other.getByRole('link', { name: 'Farm Sales, 1 new', exact: true })).toBeVisible()
  await expect(other.getByRole('option', { name: 'Handled 1' })).toBeAttached()
  const id = (await ned.getAttribute('id'))!.replace('submission-', '')
  // One change sent, and no loader or action asked for its data (Remix's `?_data=`) in either tab;
  // the live link's own catch-up and route discovery may come and go.
  expect(asked.filter((request) => !request.startsWith('GET '))).toEqual([`PATCH ${server.url}/api/submissions/${id}`])
  expect(asked.filter((request) => request.includes('_data='))).toEqual([])

  await page.goto('/farm-sales?status=new')
  await expect(page.getByTestId('submission-card')).toHaveCount(1)
  await expect(page.getByTestId('submission-card')).toContainText('Older Olive')
  await other.close()
})

test.describe('a change the site could not make', () => {
  /** The card of a fresh submission on an open inbox, asked to be marked handled. */
  async function markHandled(page: Page, server: RunningServer, name: string) {
    await postSubmission(server, { name })
    await openHydrated(page, '/farm-sales')
    const card = page.getByTestId('submission-card').filter({ hasText: name })
    await card.getByRole('button', { name: 'Mark handled' }).click()
    return card
  }

  test('a submission gone meanwhile: the card says so and shows its true state', async ({ page, server }) => {
    await postSubmission(server, { name: 'Gone Gina' })
    await openHydrated(page, '/farm-sales')
    const sqlite = new Sqlite(server.databasePath)
    sqlite.prepare('DELETE FROM submissions').run()
    sqlite.close()
    const card = page.getByTestId('submission-card').filter({ hasText: 'Gone Gina' })
    await card.getByRole('button', { name: 'Mark handled' }).click()
    await expect(card.getByRole('alert')).toHaveText(/^Not saved: There is no submission \d+\.$/)
    await expect(card.getByText('New', { exact: true })).toBeVisible()
    await expect(card.getByRole('button', { name: 'Mark handled' })).toBeVisible()
  })

  test('a failure on the server: the card says so, and a second try that works clears it', async ({ page, server }) => {
    await page.route(
      '**/api/submissions/*',
      (route) => route.fulfill({ status: 500, json: { error: 'Something went wrong on our side. Please try again.' } }),
      { times: 1 },
    )
    const card = await markHandled(page, server, 'Broken Bea')
    await expect(card.getByRole('alert')).toHaveText('Not saved: Something went wrong on our side. Please try again.')
    await expect(card.getByText('New', { exact: true })).toBeVisible()
    await card.getByRole('button', { name: 'Mark handled' }).click()
    await expect(card.getByText('Handled', { exact: true })).toBeVisible()
    await expect(card.getByRole('alert')).toHaveCount(0)
    await expect.poll(() => storedRows(server.databasePath).map((row) => row.status)).toEqual(['handled'])
  })

  test('no connection: the card says so and stays as it was', async ({ page, server }) => {
    await page.route('**/api/submissions/*', (route) => route.abort('internetdisconnected'))
    const card = await markHandled(page, server, 'Offline Otto')
    await expect(card.getByRole('alert')).toHaveText(
      'Not saved: the farm site could not be reached. Check the connection and try again.',
    )
    await expect(card.getByText('New', { exact: true })).toBeVisible()
    expect(storedRows(server.databasePath).map((row) => row.status)).toEqual(['new'])
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('Mark handled and Mark as new post the card’s form and come back to the same view', async ({ page, server }) => {
    await postSubmission(server, { name: 'Plain Polly' })
    await page.goto('/farm-sales?urgency=normal')
    const card = page.getByTestId('submission-card')
    await card.getByRole('button', { name: 'Mark handled' }).click()
    await expect(page).toHaveURL(/\/farm-sales\?urgency=normal$/)
    await expect(card.getByText('Handled', { exact: true })).toBeVisible()
    expect(storedRows(server.databasePath)).toMatchObject([{ name: 'Plain Polly', status: 'handled' }])
    await card.getByRole('button', { name: 'Mark as new' }).click()
    await expect(card.getByRole('button', { name: 'Mark handled' })).toBeVisible()
    expect(storedRows(server.databasePath)).toMatchObject([{ status: 'new' }])
  })

  test('a submission set aside as spam goes back to the inbox with Not spam', async ({ page, server }) => {
    const trapped = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Real Rita', email: 'rita@example.com', message: 'Pears please', website: 'x' }),
    })
    expect(trapped.status).toBe(202)
    await page.goto('/farm-sales')
    await expect(page.getByText('No submissions yet.')).toBeVisible()
    await page.getByRole('link', { name: 'Spam folder' }).click()
    await page.getByTestId('submission-card').getByRole('button', { name: 'Not spam' }).click()
    await expect(page.getByText('No leads match this view.')).toBeVisible()
    await page.getByRole('link', { name: 'Back to the inbox' }).click()
    await expect(page.getByTestId('submission-card')).toContainText('Real Rita')
    expect(storedRows(server.databasePath)).toMatchObject([{ name: 'Real Rita', spam_reasons: null }])
  })
})

test('Download these leads (CSV) downloads the current view, quoted for spreadsheets', async ({ page, server }) => {
  await postSubmission(server, { name: '=cmd|calc', message: 'Two lines:\r\n"eggs", honey and more' })
  await postSubmission(server, { name: 'Plain Pat', message: 'Do you sell honey?' })
  await openHydrated(page, '/farm-sales?q=eggs')
  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download these leads (CSV)' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^farm-submissions-\d{4}-\d{2}-\d{2}\.csv$/)
  const text = readFileSync((await file.path())!, 'utf8')
  expect(text.startsWith('\uFEFF')).toBe(true)
  const [header, ...rows] = parseCsv(text.slice(1))
  expect(header!.slice(1, 6)).toEqual(['received', 'received (UTC)', 'name', 'email', 'message'])
  expect(rows).toHaveLength(1)
  expect(rows[0]![3]).toBe("'=cmd|calc")
  expect(rows[0]![5]).toBe('Two lines:\r\n"eggs", honey and more')
})

test.describe('in a browser of another time zone than the farm’s', () => {
  test.use({ timezoneId: 'Pacific/Auckland' })

  test('each card says when it arrived: a date on the farm’s clock from the server, then relative, refreshed every minute', async ({
    page,
    server,
  }) => {
    const mismatches: string[] = []
    page.on('console', (message) => {
      if (/did not match|hydrat/i.test(message.text())) mismatches.push(message.text())
    })
    const stored = await postSubmission(server, { name: 'Timely Tom' })
    const served = await (await fetch(`${server.url}/farm-sales`)).text()
    expect(served).toMatch(
      new RegExp(
        `<time dateTime="${stored.createdAt}" title="[^"]+ UTC"[^>]*>\\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d{2}:\\d{2}</time>`,
      ),
    )

    await page.clock.install()
    await openHydrated(page, '/farm-sales')
    const time = page.getByTestId('submission-card').locator('time')
    await expect(time).toHaveAttribute('datetime', stored.createdAt)
    await expect(time).toHaveText('just now')
    await page.clock.fastForward('03:00')
    await expect(time).toHaveText(/^[34] min ago$/)
    expect(mismatches).toEqual([])
  })
})
