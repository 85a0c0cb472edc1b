import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { ownerPassword } from '#tests/support/owner'
import { expect, openHydrated, postSubmission, test } from './fixtures'

const helperPassword = 'beans along the fence'

test.use({ serverEnv: { OWNER_PASSWORD: ownerPassword } })

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/sign-in')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(/\/farm-sales$/)
}

/** The owner adds Sam as a helper from the team page and reads the link to send. */
async function inviteSam(page: Page) {
  await page.goto('/farm-sales/team')
  await page.getByLabel('Name').fill('Sam Field')
  await page.getByLabel('Email').fill('sam@farm.example')
  await page.getByRole('combobox', { name: 'Role' }).last().selectOption('helper')
  await page.getByRole('button', { name: 'Add and make an invitation link' }).click()
  const link = page.getByTestId('invitation-link')
  await expect(link).toContainText('/join/')
  return (await link.textContent())!
}

/** Sam opens the link in a browser of their own and joins. */
async function samJoins(browser: Browser, link: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled })
  const sam = await context.newPage()
  await sam.goto(link)
  await expect(sam.getByRole('heading', { level: 1 })).toHaveText('Welcome, Sam Field')
  await sam.getByLabel('A password, 12 characters or more').fill('short')
  await sam.getByRole('button', { name: 'Join the team' }).click()
  await expect(sam.getByRole('alert')).toContainText('Use at least 12 characters')
  await sam.getByLabel('A password, 12 characters or more').fill(helperPassword)
  await sam.getByRole('button', { name: 'Join the team' }).click()
  await expect(sam).toHaveURL(/\/farm-sales$/)
  return { sam, context }
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('the owner invites a helper, who joins once and works the inbox but not the owner’s pages', async ({
      page,
      browser,
      server,
    }) => {
      await postSubmission(server, { name: 'Waiting Wendy' })
      await signIn(page, '', ownerPassword)
      const link = await inviteSam(page)
      const { sam, context } = await samJoins(browser, link, javaScriptEnabled)
      await expect(sam.getByTestId('submission-card')).toContainText('Waiting Wendy')
      await expect(sam.getByRole('link', { name: 'Your page' })).toBeVisible()
      for (const ownerLink of [
        'Team',
        'Settings',
        'Activity',
        'Download a backup of everything',
        'Updates',
        'Insights',
        'Saved replies',
        'The farm’s page',
      ]) {
        await expect(sam.getByRole('link', { name: ownerLink })).toHaveCount(0)
      }
      await sam.getByRole('button', { name: 'Mark handled' }).click()
      await expect(sam.getByTestId('lead-event')).toContainText('Marked handled by Sam Field')
      await sam.goto('/farm-sales/team')
      await expect(sam.getByText('Only an owner may change the team; you are signed in as a helper.')).toBeVisible()

      // The link is used up.
      await sam.goto(link)
      await expect(sam.getByRole('alert')).toContainText('That invitation link has been used.')

      // The owner sees who marked it, then removes Sam: Sam's next page asks to sign in.
      await page.goto('/farm-sales')
      await expect(page.getByTestId('lead-event')).toContainText('Marked handled by Sam Field')
      await page.goto('/farm-sales/team')
      const samCard = page.getByTestId('person').filter({ hasText: 'Sam Field' })
      await samCard.getByRole('button', { name: 'Remove from the team' }).click()
      await expect(page.getByTestId('person')).toHaveCount(1)
      await sam.goto('/farm-sales')
      await expect(sam).toHaveURL(/\/sign-in/)
      await context.close()
    })
  })
}

test('a person adds a passkey on their page and signs in with it, nothing typed (virtual authenticator)', async ({
  page,
  server,
}) => {
  // A passkey belongs to a name, not an address: localhost, as a phone would use the farm's name.
  const site = server.url.replace('127.0.0.1', 'localhost')
  const devtools = await page.context().newCDPSession(page)
  await devtools.send('WebAuthn.enable')
  await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  await page.goto(`${site}/sign-in`)
  await page.getByLabel('Password').fill(ownerPassword)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(`${site}/farm-sales`)
  await openHydrated(page, `${site}/farm-sales/me`)
  // A session alone never adds a way in: the password first.
  await page.getByLabel('Your password, to add a passkey').fill('not my password')
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await expect(page.getByRole('alert')).toContainText('Your password is not right.')
  await page.getByLabel('Your password, to add a passkey').fill(ownerPassword)
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Passkey added' })).toBeVisible()
  await expect(page.getByTestId('passkey')).toHaveCount(1)
  await expect(page.getByTestId('passkey')).toContainText('not used yet')

  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await openHydrated(page, `${site}/sign-in?redirectTo=%2Ffarm-sales%2Fme`)
  await page.getByRole('button', { name: 'Use a passkey' }).click()
  await expect(page).toHaveURL(`${site}/farm-sales/me`)
  await expect(page.getByTestId('passkey')).toContainText('last used')

  // Removed, it signs no one in.
  await page.getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByTestId('passkey')).toHaveCount(0)
  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await openHydrated(page, `${site}/sign-in`)
  await page.getByRole('button', { name: 'Use a passkey' }).click()
  await expect(page.getByRole('alert')).toContainText('That passkey is not one of the team’s.')
})

for (const width of [1280, 375]) {
  test(`the team’s pages are clean in axe at ${width} px`, async ({ page, browser }) => {
    // Six pages, two browsers and seven axe runs: past a page's default time beside the rest of a CI run.
    test.slow()
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/sign-in')
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])
    await signIn(page, '', ownerPassword)
    const link = await inviteSam(page)
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])
    for (const path of ['/farm-sales/me', '/farm-sales/activity']) {
      await page.goto(path)
      expect((await new AxeBuilder({ page }).analyze()).violations, path).toEqual([])
    }
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    const sam = await context.newPage()
    await sam.goto(link)
    expect((await new AxeBuilder({ page: sam }).analyze()).violations).toEqual([])
    await context.close()
  })
}
