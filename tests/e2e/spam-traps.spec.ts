import { storedRows } from '#tests/support/database'
import { expect, fillContactForm, openHydrated, test } from './fixtures'

const spamFolder = (databasePath: string) => storedRows(databasePath).filter((row) => row.spam_reasons !== null)

test.describe('with the default minimum fill time', () => {
  test.use({ serverEnv: { MIN_FILL_SECONDS: '3' } })

  test('a form filled in faster than a person could is thanked and kept aside, out of the inbox', async ({
    page,
    server,
  }) => {
    await openHydrated(page, '/')
    await fillContactForm(page, { name: 'Speedy Sam', email: 'sam@example.com', message: 'Two dozen eggs' })
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Thank you! Your message has reached the farm.')).toBeVisible()
    expect(spamFolder(server.databasePath)).toMatchObject([{ name: 'Speedy Sam', spam_reasons: '["filled_too_fast"]' }])
    await page.goto('/farm-sales')
    await expect(page.getByText('No submissions yet.')).toBeVisible()
  })

  test('a person who takes their time is stored in the inbox', async ({ page, server }) => {
    await openHydrated(page, '/')
    await fillContactForm(page, { name: 'Patient Pat', email: 'pat@example.com', message: 'What apples do you grow?' })
    await page.waitForTimeout(3_100)
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Thank you! Your message has reached the farm.')).toBeVisible()
    expect(storedRows(server.databasePath)).toMatchObject([{ name: 'Patient Pat', spam_reasons: null }])
  })

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false })

    test('an empty form sent at once gets its field messages, not a thank-you', async ({ page, server }) => {
      await page.goto('/')
      await page.getByRole('button', { name: 'Submit' }).click()
      await expect(page.getByLabel('Name')).toHaveAccessibleDescription('Name is required')
      await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Email is required')
      await expect(page.getByLabel('Message')).toHaveAccessibleDescription('Message is required')
      await expect(page.getByText('Thank you! Your message has reached the farm.')).toHaveCount(0)
      expect(storedRows(server.databasePath)).toEqual([])
    })
  })
})

test('a bot that fills the hidden field is kept aside, with or without JavaScript', async ({ page, server }) => {
  await openHydrated(page, '/')
  const honeypot = page.locator('input[name="website"]')
  await expect(honeypot).not.toBeInViewport()
  await expect(honeypot).toHaveAttribute('tabindex', '-1')
  await honeypot.fill('http://spam.example', { force: true })
  await fillContactForm(page, { name: 'Bot', email: 'bot@example.com', message: 'Cheap pills' })
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Thank you! Your message has reached the farm.')).toBeVisible()

  // The same form sent natively, as a bot without JavaScript would; the fields were cleared on success.
  await fillContactForm(page, { name: 'Bot', email: 'bot@example.com', message: 'Cheap pills' })
  await page.evaluate(() =>
    document.querySelector<HTMLFormElement>('form[aria-labelledby="contact-heading"]')?.submit(),
  )
  await expect(page).toHaveURL(/\?sent#contact$/)
  expect(spamFolder(server.databasePath)).toMatchObject([
    { name: 'Bot', spam_reasons: '["honeypot"]' },
    { name: 'Bot', spam_reasons: '["honeypot"]' },
  ])
  expect(storedRows(server.databasePath)).toHaveLength(2)
})
