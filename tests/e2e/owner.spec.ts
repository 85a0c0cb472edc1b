import { ownerPassword as password } from '#tests/support/owner'
import { expect, fillContactForm, openHydrated, postSubmission, test } from './fixtures'

test.describe('with OWNER_PASSWORD set', () => {
  test.use({ serverEnv: { OWNER_PASSWORD: password } })

  test('the owner signs in to see the inbox live, and signs out again', async ({ page, server }) => {
    await postSubmission(server, { name: 'Waiting Wendy' })
    await page.goto('/farm-sales')
    await expect(page).toHaveURL(`${server.url}/sign-in?redirectTo=%2Ffarm-sales`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in')
    await expect(page.getByText('Waiting Wendy')).toHaveCount(0)

    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
    await page.getByLabel('Password').fill('not it')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert')).toHaveText('That password is not right.')

    const opened = page.waitForEvent('websocket')
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(`${server.url}/farm-sales`)
    await expect(page.getByTestId('submission-card')).toContainText('Waiting Wendy')

    const socket = await opened
    expect(socket.isClosed()).toBe(false)
    await postSubmission(server, { name: 'Live Lena' })
    await expect(page.getByTestId('submission-card').first()).toContainText('Live Lena')

    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(`${server.url}/`)
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0)
    await page.goto('/farm-sales')
    await expect(page).toHaveURL(/\/sign-in/)
  })

  test('visitors can still send the form', async ({ page, server }) => {
    await openHydrated(page, '/')
    await fillContactForm(page, { name: 'Visiting Vera', email: 'vera@example.com', message: 'Honey, please.' })
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Thank you! Your message has reached the farm.')).toBeVisible()
    expect((await postSubmission(server, { name: 'Check' })).id).toBe(2)
  })
})
