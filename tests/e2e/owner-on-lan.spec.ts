import { chromiumLaunch } from '#tests/support/chromium'
import { expect, postSubmission, test } from './fixtures'

const password = 'cows come home at six'

test.use({
  // The README's docker run settings: a password, and no PUBLIC_URL or ALLOWED_HOSTS (decision 025).
  serverEnv: { OWNER_PASSWORD: password, FARM_NAME: 'Willow Creek Farm' },
  // The farm's LAN name, as the owner's laptop resolves it, pointed at this test's server.
  launchOptions: { ...chromiumLaunch, args: [...chromiumLaunch.args, '--host-resolver-rules=MAP farm.lan 127.0.0.1'] },
})

test('the owner signs in over plain HTTP at the farm’s LAN name and sees the inbox', async ({ page, server }) => {
  await postSubmission(server, { name: 'Neighbour Nora' })
  const site = `http://farm.lan:${server.port}`
  await page.goto(`${site}/farm-sales`)
  await expect(page).toHaveURL(`${site}/sign-in?redirectTo=%2Ffarm-sales`)
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(`${site}/farm-sales`)
  await expect(page.getByTestId('submission-card')).toContainText('Neighbour Nora')
  await page.reload()
  await expect(page.getByTestId('submission-card')).toContainText('Neighbour Nora')
  // The live link opens at that name too: a new lead arrives without a reload.
  await postSubmission(server, { name: 'Live Lena' })
  await expect(page.getByTestId('submission-card').first()).toContainText('Live Lena')
  await expect.poll(() => server.output()).toContain('signed in over plain HTTP')
})
