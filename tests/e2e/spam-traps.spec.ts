import { storedRows } from '../support/database'
import { expect, fillContactForm, openHydrated, test } from './fixtures'

test.describe('with the default minimum fill time', () => {
  test.use({ serverEnv: { MIN_FILL_SECONDS: '3' } })

  test('a form filled in faster than a person could gets a neutral answer and is not stored', async ({
    page,
    server,
  }) => {
    await openHydrated(page, '/')
    await fillContactForm(page, { name: 'Speedy Bot', email: 'bot@example.com', message: 'Buy now' })
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Thank you! Your message has reached the farm.')).toBeVisible()
    expect(storedRows(server.databasePath)).toEqual([])
  })

  test('a person who takes their time is stored', async ({ page, server }) => {
    await openHydrated(page, '/')
    await fillContactForm(page, { name: 'Patient Pat', email: 'pat@example.com', message: 'What apples do you grow?' })
    await page.waitForTimeout(3_100)
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Thank you! Your message has reached the farm.')).toBeVisible()
    expect(storedRows(server.databasePath)).toMatchObject([{ name: 'Patient Pat' }])
  })
})

test('a bot that fills the hidden field is not stored, with or without JavaScript', async ({ page, server }) => {
  await openHydrated(page, '/')
  const honeypot = page.locator('input[name="website"]')
  await expect(honeypot).not.toBeInViewport()
  await expect(honeypot).toHaveAttribute('tabindex', '-1')
  await honeypot.fill('http://spam.example', { force: true })
  await fillContactForm(page, { name: 'Bot', email: 'bot@example.com', message: 'Cheap pills' })
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Thank you! Your message has reached the farm.')).toBeVisible()

  await page.evaluate(() =>
    document.querySelector<HTMLFormElement>('form[aria-labelledby="contact-heading"]')?.submit(),
  )
  await expect(page).toHaveURL(/\?sent#contact$/)
  expect(storedRows(server.databasePath)).toEqual([])
})
