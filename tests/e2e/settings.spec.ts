import { test as base } from '@playwright/test'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password } from '#tests/support/owner'
import { startServer, type RunningServer } from '#tests/support/server'
import { expect, farmEnv, openHydrated, postSubmission, signInContext, type Page } from './fixtures'

const mailLogin = { user: 'farm', password: 'hay-bale-7-Ünïcode' }

/**
 * A signed-in owner's browser on a site started with no mail at all (the shipped defaults but
 * OWNER_PASSWORD), and a real SMTP server on loopback that asks for a password.
 */
const test = base.extend<{ mail: MailServer; server: RunningServer; serverEnv: Record<string, string> }>({
  serverEnv: [{}, { option: true }],
  // Playwright reads a fixture's needs from its first parameter's pattern: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  mail: async ({}, use) => {
    const mail = await startMailServer({ login: mailLogin })
    await use(mail)
    await mail.close()
  },
  server: async ({ serverEnv }, use) => {
    const server = await startServer({ env: { ...farmEnv, OWNER_PASSWORD: password, ...serverEnv } })
    await use(server)
    await server.stop()
  },
  baseURL: async ({ server }, use) => use(server.url),
  context: async ({ context, server }, use) => {
    await signInContext(context, server)
    await use(context)
  },
})

async function fillMail(page: Page, mail: MailServer, mailPassword: string) {
  const section = page.locator('#mail')
  const named = (name: string) => section.getByRole('textbox', { name, exact: true })
  await section.getByLabel('Your mail provider').selectOption({ label: 'Another provider' })
  await named('Sending (SMTP) Server').fill('127.0.0.1')
  await named('Sending (SMTP) Port').fill(String(mail.port))
  await section.getByRole('combobox', { name: 'Sending (SMTP) Security' }).selectOption('offered')
  await named('Your mail account Your mail address or user name').fill(mailLogin.user)
  await named('Your mail account Password').fill(mailPassword)
  await named('Your addresses').fill('owner@bramble.example')
  return section
}

const cardOf = (page: Page, name: string) => page.getByTestId('submission-card').filter({ hasText: name })

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled })
    const open = (page: Page, path: string) => (javaScriptEnabled ? openHydrated(page, path) : page.goto(path))

    test('the owner sets up mail from the page, tries it, and answers a lead from its card without a restart', async ({
      page,
      server,
      mail,
    }) => {
      await postSubmission(server, { name: 'Ann Baker', email: 'ann@example.com', message: 'Two dozen eggs?' })
      await open(page, '/farm-sales')
      const steps = page.getByRole('region', { name: 'Three steps make this site useful' })
      await expect(steps.getByRole('listitem')).toHaveText([
        /^1Set up mail \(not done yet\)/,
        /^2Be told on your phone \(not done yet\)/,
        /^3Offer updates \(not done yet\)/,
      ])
      // One note for the page, none on the card.
      await expect(cardOf(page, 'Ann Baker').getByText('To answer from here')).toHaveCount(0)
      await steps.getByRole('link', { name: 'Set up mail' }).click()
      await expect(page).toHaveURL(/\/farm-sales\/settings#mail$/)

      const section = await fillMail(page, mail, 'wrong-password')
      await section.getByRole('button', { name: 'Test sending and reading' }).click()
      // Each half in words: sending refused the password, reading is not set up; nothing was saved.
      const refusal = section.getByRole('alert')
      await expect(refusal.getByRole('listitem')).toHaveText([
        'Sending: The server refused the user name or password: check both; many providers need an app password made for the site.',
        'Reading: No server to read: answers and bounces stay in your mail program.',
      ])
      await expect(refusal).toContainText('Not saved yet.')
      await expect(section.locator('#setting-SMTP_PASSWORD')).toHaveAttribute(
        'aria-describedby',
        'mail-test-sending setting-SMTP_PASSWORD-hint',
      )
      expect(mail.mails).toHaveLength(0)
      await expect(section.getByText('Not set', { exact: true })).toBeVisible()
      // The password typed is never sent back: without JavaScript it is typed again.
      expect(await page.content()).not.toContain('wrong-password')

      await fillMail(page, mail, mailLogin.password)
      await section.getByRole('button', { name: 'Test sending and reading' }).click()
      await expect(section.getByRole('status').getByRole('listitem').first()).toHaveText(
        'Sending: Sent a test mail to owner@bramble.example. The mail server took it.',
      )
      await expect.poll(() => mail.mails.map((sent) => sent.subject)).toEqual(['A test mail from Bramble Hill Farm'])

      await fillMail(page, mail, mailLogin.password)
      await section.getByRole('button', { name: 'Save mail' }).click()
      await expect(page).toHaveURL(/\/farm-sales\/settings\?saved=mail#mail$/)
      await expect(page.locator('#mail').getByRole('status')).toHaveText(
        'Saved. It is used from the next mail, push or page.',
      )
      await expect(page.locator('#mail').getByText('Set', { exact: true })).toBeVisible()
      await expect(page.locator('#setting-SMTP_HOST')).toHaveValue('127.0.0.1')
      expect(await page.content()).not.toContain(mailLogin.password)

      await open(page, '/farm-sales')
      await expect(page.getByRole('region', { name: 'Three steps make this site useful' })).toHaveCount(0)
      await expect(page.getByRole('note')).toHaveText('Not set up yet: be told on your phone, offer updates.')
      const card = cardOf(page, 'Ann Baker')
      await card.locator('summary', { hasText: 'Reply' }).click()
      await card.getByLabel('Reply to Ann Baker').fill('Yes, Ann: two dozen on Saturday.')
      await card.getByRole('button', { name: 'Send reply' }).click()
      await expect
        .poll(() => mail.mails.filter((sent) => sent.subject === 'Re: Your message to Bramble Hill Farm').length)
        .toBe(1)
      expect(server.output()).not.toContain(mailLogin.password)
    })

    test('Enter in a field saves the section and never removes the password', async ({
      page,
      context,
      server,
      mail,
    }) => {
      const cookie = (await context.cookies())[0]!
      const saved = await fetch(`${server.url}/api/settings`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', Cookie: `${cookie.name}=${cookie.value}` },
        body: JSON.stringify({
          SMTP_HOST: '127.0.0.1',
          SMTP_PORT: String(mail.port),
          SMTP_SECURITY: 'offered',
          SMTP_USER: mailLogin.user,
          SMTP_PASSWORD: mailLogin.password,
          NOTIFY_EMAIL: 'owner@bramble.example',
        }),
      })
      expect(saved.status).toBe(200)
      await open(page, '/farm-sales/settings')
      const section = page.locator('#mail')
      await expect(section.getByRole('button', { name: 'Remove' })).toBeVisible()
      await section.getByLabel('From').fill('hello@bramble.example')
      await section.getByLabel('From').press('Enter')
      await expect(page).toHaveURL(/\/farm-sales\/settings\?saved=mail#mail$/)
      await expect(page.locator('#mail').getByText('Set', { exact: true })).toBeVisible()
      await expect(page.locator('#setting-NOTIFY_FROM')).toHaveValue('hello@bramble.example')
      // Remove, its own button, takes the password away.
      await page.locator('#mail').getByRole('button', { name: 'Remove' }).click()
      await expect(page).toHaveURL(/\/farm-sales\/settings\?saved=mail#mail$/)
      await expect(page.locator('#mail').getByText('Not set', { exact: true })).toBeVisible()
    })

    test('a refused value says why beside its field, keeps what was typed, and saves nothing', async ({ page }) => {
      await open(page, '/farm-sales/settings')
      // Backups are folded under Advanced until opened, or until one of its sections answers.
      await expect(page.locator('#backups')).toBeHidden()
      await page.locator('#advanced > summary').click()
      const backups = page.locator('#backups')
      await backups.getByLabel('Backups to keep').fill('0')
      await backups.getByRole('button', { name: 'Save backups' }).click()
      await expect(backups.getByRole('alert')).toHaveText('Not saved: Must be a whole number from 1 to 1000, not "0"')
      await expect(backups.getByLabel('Backups to keep')).toHaveValue('0')
      await expect(backups.getByLabel('Backups to keep')).toHaveAttribute('aria-invalid', 'true')
      await open(page, '/farm-sales/settings')
      await expect(page.locator('#backups').getByLabel('Backups to keep')).toHaveValue('14')
    })
  })
}

test.describe('set by the environment', () => {
  test.use({ serverEnv: { FARM_PRODUCT: 'Orchard fruit', SPAM_RETENTION_DAYS: '10' } })

  test('a field the environment sets is shown locked, with the variable’s name', async ({ page }) => {
    await openHydrated(page, '/farm-sales/settings')
    const field = page.getByLabel('What the farm sells, in a few words')
    await expect(field).toBeDisabled()
    await expect(field).toHaveValue('Orchard fruit')
    await expect(page.locator('#farm')).toContainText('Set where the site runs (FARM_PRODUCT)')
    // Only a locked field names its variable.
    await expect(page.locator('main')).not.toContainText('SMTP_HOST')
    await expect(page.getByLabel('Suspected spam, days')).toBeDisabled()
  })
})

test.describe('named from the page', () => {
  // The fixtures name the farm in the environment; an empty variable is an unset one.
  test.use({ serverEnv: { FARM_NAME: '' } })

  test('an open inbox shows the farm’s new name as soon as it is saved, without a reload', async ({
    page,
    context,
    server,
  }) => {
    const opened = page.waitForEvent('websocket')
    await openHydrated(page, '/farm-sales')
    await opened
    await expect(page.getByRole('banner')).toContainText('Willow Creek Farm')
    await page.evaluate(() => ((window as { notReloaded?: boolean }).notReloaded = true))
    const cookie = (await context.cookies())[0]!
    const saved = await fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Cookie: `${cookie.name}=${cookie.value}` },
      body: JSON.stringify({ FARM_NAME: 'Orchard Lane Farm' }),
    })
    expect(saved.status).toBe(200)
    await expect(page.getByRole('banner')).toContainText('Orchard Lane Farm')
    expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true)
  })
})
