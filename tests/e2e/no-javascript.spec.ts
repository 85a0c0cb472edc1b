import { storedRows } from '#tests/support/database'
import { connectLive } from '#tests/support/live-client'
import { expect, test } from './fixtures'

test.use({ javaScriptEnabled: false })

test('without JavaScript the server validates, answers 400 and keeps the typed values', async ({ page, server }) => {
  await page.goto('/')
  await page.getByLabel('Name').fill('  Dot Pruitt ')
  await page.getByLabel('Email').fill('dot.example.com')
  const answer = page.waitForResponse((response) => response.request().method() === 'POST')
  await page.getByRole('button', { name: 'Submit' }).click()
  const response = await answer
  expect(response.status()).toBe(400)
  expect(new URL(response.url()).search).toBe('?index')

  await expect(page.getByLabel('Name')).toHaveValue('  Dot Pruitt ')
  await expect(page.getByLabel('Email')).toHaveValue('dot.example.com')
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Invalid email format')
  await expect(page.getByLabel('Message')).toHaveAccessibleDescription('Message is required')
  await expect(page.getByLabel('Name')).not.toHaveAttribute('aria-invalid')
  expect(storedRows(server.databasePath)).toEqual([])
})

test('without JavaScript a valid form is stored, broadcast, and listed on the server-rendered Farm Sales page', async ({
  page,
  server,
}) => {
  const live = await connectLive(server.wsUrl)
  await page.goto('/')
  await page.getByLabel('Name').fill('Dot Pruitt')
  await page.getByLabel('Email').fill('dot@example.com')
  await page.getByLabel('Message').fill('Do you deliver\non Thursdays?')
  await page.getByRole('button', { name: 'Submit' }).click()

  await expect(page).toHaveURL(`${server.url}/?sent#contact`)
  await expect(page.getByRole('status')).toHaveText('Thank you! Your message has reached the farm.')
  for (const label of ['Name', 'Email', 'Message']) await expect(page.getByLabel(label)).toHaveValue('')

  const stored = storedRows(server.databasePath)
  expect(stored).toMatchObject([
    { name: 'Dot Pruitt', email: 'dot@example.com', message: 'Do you deliver\r\non Thursdays?' },
  ])
  expect((await live.next()).data).toMatchObject({ id: stored[0]!.id, name: 'Dot Pruitt' })
  live.close()

  await page.getByRole('link', { name: 'Farm Sales' }).first().click()
  const card = page.getByTestId('submission-card')
  await expect(card).toBeVisible()
  await expect(card).toHaveCSS('opacity', '1')
  await expect(card).toContainText('Dot Pruitt')
  await expect(card).toContainText('dot@example.com')
})
