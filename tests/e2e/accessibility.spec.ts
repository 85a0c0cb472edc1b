import AxeBuilder from '@axe-core/playwright'
import { animationsEnded, expect, openHydrated, postSubmission, test, type Page } from './fixtures'

async function expectNoViolations(page: Page) {
  await animationsEnded(page)
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
  ).toEqual([])
}

for (const [width, height] of [
  [1280, 900],
  [375, 740],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } })

    test('the home page', async ({ page }) => {
      await openHydrated(page, '/')
      await expectNoViolations(page)
    })

    test('the form with its errors showing', async ({ page }) => {
      await openHydrated(page, '/')
      await page.getByLabel('Email').fill('not-an-email')
      await page.getByRole('button', { name: 'Submit' }).click()
      await expect(page.getByText('Invalid email format')).toBeVisible()
      await expectNoViolations(page)
    })

    test('Farm Sales, empty', async ({ page }) => {
      await openHydrated(page, '/farm-sales')
      await expect(page.getByText('No submissions yet.')).toBeVisible()
      await expectNoViolations(page)
    })

    test('Farm Sales, filled', async ({ page, server }) => {
      await postSubmission(server, { name: 'Ivy', message: 'Do you have free-range eggs?' })
      await postSubmission(server, { name: 'Ben', message: 'Lovely apples last week, thank you!' })
      await openHydrated(page, '/farm-sales')
      await expect(page.getByTestId('submission-card')).toHaveCount(2)
      await expectNoViolations(page)
    })

    test.describe('with the inbox protected', () => {
      test.use({ serverEnv: { OWNER_PASSWORD: 'a long owner password' } })

      test('the sign-in page, after a wrong password', async ({ page }) => {
        await openHydrated(page, '/sign-in')
        await page.getByLabel('Password').fill('wrong')
        await page.getByRole('button', { name: 'Sign in' }).click()
        await expect(page.getByRole('alert')).toHaveText('That password is not right.')
        await expectNoViolations(page)
      })
    })

    test('the 404 page', async ({ page }) => {
      await openHydrated(page, '/no-such-field')
      await expectNoViolations(page)
    })
  })
}
