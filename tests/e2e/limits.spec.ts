import { defaults } from '#server/config'
import { storedRows } from '#tests/support/database'
import { expect, fillContactForm, openHydrated, test } from './fixtures'

const password = 'five guesses only'
const tooManySignIns = 'Too many sign-in attempts. Please wait a minute and try again.'
const tooManySubmissions = 'Too many submissions from your address. Please wait a minute and try again.'

test.describe('sign-in limit', () => {
  test.use({ serverEnv: { OWNER_PASSWORD: password } })

  test('with JavaScript, the sixth attempt in a minute shows the limit on the sign-in page', async ({ page }) => {
    await openHydrated(page, '/sign-in')
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Password').fill(`guess ${i}`)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page.getByRole('alert')).toHaveText('That password is not right.')
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled()
    }
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert')).toHaveText(tooManySignIns)
    await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in')
    await page.goto('/farm-sales')
    await expect(page).toHaveURL(/\/sign-in/)
  })

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false })

    test('the sixth attempt shows the same message on the page', async ({ page }) => {
      for (let i = 0; i < 6; i++) {
        await page.goto('/sign-in')
        await page.getByLabel('Password').fill(i < 5 ? `guess ${i}` : password)
        await page.getByRole('button', { name: 'Sign in' }).click()
      }
      await expect(page.getByRole('alert')).toHaveText(tooManySignIns)
    })
  })
})

test.describe('submission limit at the shipped default', () => {
  // The harness lifts the limit for other specs; this one runs at the default.
  test.use({ serverEnv: { SUBMISSION_RATE_LIMIT: defaults.SUBMISSION_RATE_LIMIT } })

  test('with JavaScript, a submission past the limit gets an error toast and keeps its values', async ({
    page,
    server,
  }) => {
    const limit = Number(defaults.SUBMISSION_RATE_LIMIT)
    for (let i = 0; i < limit; i++) {
      const answer = await page.request.post(`${server.url}/api/submissions`, {
        data: { name: 'Earlier', email: 'earlier@example.com', message: `Message ${i}` },
      })
      expect(answer.status()).toBe(201)
    }
    await openHydrated(page, '/')
    await fillContactForm(page, { name: 'Patient Pat', email: 'pat@example.com', message: 'Any pears?' })
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText(tooManySubmissions)).toBeVisible()
    await expect(page.getByLabel('Name')).toHaveValue('Patient Pat')
    expect(storedRows(server.databasePath)).toHaveLength(limit)
  })
})
