import { chromiumLaunch } from '#tests/support/chromium'
import { expect, postSubmission, test } from './fixtures'

const password = 'cows come home at six'

test.use({
  // The farm's LAN name is one the site must be told it answers to.
  serverEnv: { OWNER_PASSWORD: password, ALLOWED_HOSTS: 'farm.lan' },
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
  await expect.poll(() => server.output()).toContain('signed in over plain HTTP')
})
