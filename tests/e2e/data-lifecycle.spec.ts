import { readFileSync } from 'node:fs'
import type { BrowserContext } from '@playwright/test'
import { checkDatabaseFile } from '#app/lifecycle/backup-files.server'
import { readRows } from '#tests/support/database'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { expect, openHydrated, postSubmission, test } from './fixtures'

const ownerTest = test.extend<{ owner: BrowserContext }>({
  owner: async ({ browser, server, javaScriptEnabled }, use) => {
    const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled, acceptDownloads: true })
    const [name, value] = (await signInAsOwner(server.url, password)).split('=') as [string, string]
    await context.addCookies([{ name, value, url: server.url }])
    await use(context)
    await context.close()
  },
})

const names = (databasePath: string) =>
  readRows<{ name: string }>(databasePath, 'SELECT name FROM submissions ORDER BY id').map((row) => row.name)

ownerTest.describe('with JavaScript', () => {
  ownerTest.use({ serverEnv: { OWNER_PASSWORD: password } })

  ownerTest('Delete asks once, and the card leaves every open tab at once', async ({ owner, server }) => {
    await postSubmission(server, { name: 'Ann Baker', email: 'ann@example.com' })
    await postSubmission(server, { name: 'Bob Carter', email: 'bob@example.com' })
    const [here, there] = [await owner.newPage(), await owner.newPage()]
    const opened = there.waitForEvent('websocket')
    await openHydrated(there, '/farm-sales')
    await opened
    await openHydrated(here, '/farm-sales')
    const bob = here.getByTestId('submission-card').filter({ hasText: 'Bob Carter' })
    // Under 'More', not beside Reply: deleting is rare, and says what it removes.
    await bob.getByText('More', { exact: true }).click()
    await bob.getByText('Delete this lead', { exact: true }).click()
    await expect(
      bob.getByText(
        'Delete this lead for good? Its message, its analysis and the mails about it go with it; other leads from the same address stay.',
      ),
    ).toBeVisible()
    await bob.getByRole('button', { name: 'Yes, delete it' }).click()
    for (const page of [here, there]) {
      await expect(page.getByText('Bob Carter')).toHaveCount(0)
      await expect(page.getByTestId('submission-card')).toHaveCount(1)
    }
    expect(names(server.databasePath)).toEqual(['Ann Baker'])
  })

  ownerTest('Forget this person takes every card of theirs from every tab', async ({ owner, server }) => {
    await postSubmission(server, { name: 'Ann Baker', email: 'ann@example.com', message: 'Honey on Saturday?' })
    await postSubmission(server, { name: 'Bob Carter', email: 'bob@example.com' })
    await postSubmission(server, { name: 'Ann Baker', email: 'ANN@example.com', message: 'And eggs?' })
    const [here, there] = [await owner.newPage(), await owner.newPage()]
    const opened = there.waitForEvent('websocket')
    await openHydrated(there, '/farm-sales')
    await opened
    await openHydrated(here, '/farm-sales')
    const ann = here.getByTestId('submission-card').first()
    await ann.getByText('More', { exact: true }).click()
    await ann.getByText('Forget this person').click()
    await expect(ann.getByText('Forget ANN@example.com?')).toBeVisible()
    await ann.getByRole('button', { name: 'Yes, forget them' }).click()
    for (const page of [here, there]) {
      await expect(page.getByText('Ann Baker')).toHaveCount(0)
      await expect(page.getByTestId('submission-card')).toHaveCount(1)
    }
    expect(names(server.databasePath)).toEqual(['Bob Carter'])
  })

  ownerTest('downloads a backup, and everything about one person', async ({ owner, server }) => {
    await postSubmission(server, { name: 'Ann Baker', email: 'ann@example.com', message: 'Honey on Saturday?' })
    const page = await owner.newPage()
    await openHydrated(page, '/farm-sales')
    const [backup] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download a backup of everything' }).click(),
    ])
    expect(backup.suggestedFilename()).toMatch(/^farm-\d{8}-\d{6}\.db$/)
    expect(checkDatabaseFile(await backup.path())).toMatchObject({ ok: true, submissions: 1 })
    await page.getByTestId('submission-card').getByText('More', { exact: true }).click()
    const [person] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download Ann Baker’s data (JSON)' }).click(),
    ])
    expect(JSON.parse(readFileSync(await person.path(), 'utf8'))).toMatchObject({
      email: 'ann@example.com',
      submissions: [{ name: 'Ann Baker', message: 'Honey on Saturday?' }],
      subscription: null,
    })
  })
})

ownerTest.describe('without JavaScript', () => {
  ownerTest.use({ javaScriptEnabled: false, serverEnv: { OWNER_PASSWORD: password } })

  ownerTest('Delete, Forget this person and Empty the spam folder work as plain forms', async ({ owner, server }) => {
    await postSubmission(server, { name: 'Ann Baker', email: 'ann@example.com' })
    await postSubmission(server, { name: 'Bob Carter', email: 'bob@example.com' })
    await postSubmission(server, { name: 'Cara Dunn', email: 'cara@example.com' })
    // Kept aside as spam: answered 202, not 201.
    const spam = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Win Big',
        email: 'bot@example.com',
        message: 'Click http://a.test http://b.test http://c.test now',
      }),
    })
    expect(spam.status).toBe(202)
    const page = await owner.newPage()
    await page.goto('/farm-sales?status=new')
    const bob = page.getByTestId('submission-card').filter({ hasText: 'Bob Carter' })
    await bob.getByText('More', { exact: true }).click()
    await bob.getByText('Delete this lead', { exact: true }).click()
    await bob.getByRole('button', { name: 'Yes, delete it' }).click()
    await expect(page).toHaveURL(/\/farm-sales\?status=new$/)
    await expect(page.getByText('Bob Carter')).toHaveCount(0)
    const cara = page.getByTestId('submission-card').filter({ hasText: 'Cara Dunn' })
    await cara.getByText('More', { exact: true }).click()
    await cara.getByText('Forget this person').click()
    await cara.getByRole('button', { name: 'Yes, forget them' }).click()
    await expect(page.getByText('Cara Dunn')).toHaveCount(0)
    await expect(page.getByTestId('submission-card')).toHaveCount(1)

    await page.goto('/farm-sales?spam=true')
    await expect(page.getByRole('heading', { name: 'Win Big' })).toBeVisible()
    await page.getByText('Empty the spam folder').click()
    await page.getByRole('button', { name: 'Yes, empty it' }).click()
    await expect(page.getByText('Win Big')).toHaveCount(0)
    expect(names(server.databasePath)).toEqual(['Ann Baker'])
  })
})

test('without OWNER_PASSWORD the inbox says the site is not claimed, and has no delete, forget or backup', async ({
  page,
  server,
}) => {
  await postSubmission(server, { name: 'Ann Baker', email: 'ann@example.com' })
  await openHydrated(page, '/farm-sales')
  await expect(page.getByRole('heading', { name: 'Ann Baker' })).toBeVisible()
  await expect(page.getByTestId('claim-note')).toContainText('the site is not claimed yet')
  for (const absent of ['Download a backup of everything', 'More', 'Delete this lead', 'Forget this person']) {
    await expect(page.getByText(absent, { exact: true })).toHaveCount(0)
  }
})
