import AxeBuilder from '@axe-core/playwright'
import { test as base } from '@playwright/test'
import { startMailStack, type MailStack } from '#tests/support/mail-stack'
import { ownerPassword as password } from '#tests/support/owner'
import { freePort, mailboxState, startServer, type RunningServer } from '#tests/support/server'
import { animationsEnded, expect, farmEnv, openHydrated, signInContext, type Page } from './fixtures'

/**
 * The farm's mailbox connected from the settings page's one form, against the real Postfix and
 * Dovecot (tests/support/mail-stack.ts): the site runs with TEST_MAIL_PROVIDER, so the stack is
 * offered as a provider, as Gmail's servers are to a real owner.
 */
const test = base.extend<{ stack: MailStack; server: RunningServer; serverEnv: Record<string, string> }>({
  serverEnv: [{}, { option: true }],
  // Playwright reads a fixture's needs from its first parameter's pattern: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  stack: async ({}, use) => {
    const stack = await startMailStack()
    await use(stack)
    await stack.stop()
  },
  server: async ({ stack, serverEnv }, use) => {
    const server = await startServer({
      env: {
        ...farmEnv,
        OWNER_PASSWORD: password,
        TEST_MAIL_PROVIDER: stack.provider,
        NODE_EXTRA_CA_CERTS: stack.certificate,
        ...serverEnv,
      },
    })
    await use(server)
    await server.stop()
  },
  baseURL: async ({ server }, use) => use(server.url),
  context: async ({ context, server }, use) => {
    await signInContext(context, server)
    await use(context)
  },
})

/** Every element of the page within the screen's width: no text runs off it. */
async function expectNothingOverflows(page: Page) {
  const over = await page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map((element) => `${element.tagName} ${element.textContent?.slice(0, 40)}`),
  )
  expect(over).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  )
}

/** axe runs in the page's own JavaScript: without it, only the same markup's looks are checked (no overflow). */
async function expectAxeClean(page: Page, javaScriptEnabled = true) {
  if (!javaScriptEnabled) return expectNothingOverflows(page)
  await animationsEnded(page)
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
  ).toEqual([])
}

const mailForm = (page: Page) => page.locator('#mail')
const field = (page: Page, name: string) => mailForm(page).getByRole('textbox', { name, exact: true })

async function fillAccount(page: Page, stack: MailStack, mailPassword: string) {
  await field(page, 'Your mail account Your mail address or user name').fill(stack.login.user)
  const secret = mailForm(page).locator('#setting-SMTP_PASSWORD')
  if (!(await secret.isVisible())) await mailForm(page).getByText('Set it').click()
  await secret.fill(mailPassword)
  await field(page, 'Your addresses').fill(stack.farmAddress)
}

/** Tries both halves; a refused password is answered after the servers' own wait (Dovecot's is two seconds). */
async function tryBoth(page: Page) {
  await mailForm(page).getByRole('button', { name: 'Test sending and reading' }).click()
  await expect(mailForm(page).getByRole('button', { name: 'Save mail' })).toBeEnabled({ timeout: 20_000 })
}

for (const javaScriptEnabled of [true, false]) {
  for (const [width, height] of [
    [1280, 900],
    [375, 740],
  ] as const) {
    test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript, at ${width} px`, () => {
      test.use({ javaScriptEnabled, viewport: { width, height } })
      const open = (page: Page, path: string) => (javaScriptEnabled ? openHydrated(page, path) : page.goto(path))

      test('connects the farm’s mailbox with a provider, says which half failed in words, and receives a lead’s mail and a visitor’s answer', async ({
        page,
        server,
        stack,
      }) => {
        test.setTimeout(120_000)
        await open(page, '/farm-sales/settings#mail')
        await expectAxeClean(page, javaScriptEnabled)
        const provider = mailForm(page).getByLabel('Your mail provider')
        await provider.selectOption({ label: 'The mail server on this machine (tests)' })
        if (!javaScriptEnabled) {
          await mailForm(page).getByRole('button', { name: 'Use these settings' }).click()
          await expect(mailForm(page).getByRole('status')).toHaveText(
            'The mail server on this machine (tests)’s servers are filled in below: type your address and password, then test or save.',
          )
        }
        const [sending, reading] = stack.provider.split(' ').map((url) => new URL(url))
        await expect(field(page, 'Sending (SMTP) Server')).toHaveValue('127.0.0.1')
        await expect(field(page, 'Sending (SMTP) Port')).toHaveValue(sending!.port)
        await expect(mailForm(page).getByRole('combobox', { name: 'Sending (SMTP) Security' })).toHaveValue('starttls')
        await expect(field(page, 'Reading (IMAP) Server')).toHaveValue('localhost')
        await expect(field(page, 'Reading (IMAP) Port')).toHaveValue(reading!.port)

        // A wrong password: both halves say so, and the one password field is the one to fix.
        await fillAccount(page, stack, 'not-the-password')
        await tryBoth(page)
        const tested = mailForm(page).getByRole('alert')
        await expect(tested.getByRole('listitem')).toHaveText([
          'Sending: The server refused the password: The test mailbox takes its own password.',
          'Reading: The server refused the password: The test mailbox takes its own password.',
        ])
        await expect(tested).toContainText('Not saved yet.')
        await expect(mailForm(page).locator('#setting-SMTP_PASSWORD')).toHaveAttribute('aria-invalid', 'true')
        await expectAxeClean(page, javaScriptEnabled)
        expect(await page.content()).not.toContain('not-the-password')

        // A wrong port for each half in turn: only that half fails, in words naming the server and port.
        const closed = String(await freePort())
        await fillAccount(page, stack, stack.login.password)
        await field(page, 'Sending (SMTP) Port').fill(closed)
        await tryBoth(page)
        await expect(mailForm(page).getByRole('alert').getByRole('listitem')).toHaveText([
          `Sending: Nothing answered at 127.0.0.1, port ${closed}: check the server’s name and port.`,
          'Reading: Signed in to localhost and opened INBOX. Nothing in it was read or changed.',
        ])
        await expect(field(page, 'Sending (SMTP) Port')).toHaveAttribute('aria-invalid', 'true')
        await expectNothingOverflows(page)
        await fillAccount(page, stack, stack.login.password)
        await field(page, 'Sending (SMTP) Port').fill(sending!.port)
        await field(page, 'Reading (IMAP) Port').fill(closed)
        await tryBoth(page)
        await expect(mailForm(page).getByRole('alert').getByRole('listitem')).toHaveText([
          `Sending: Sent a test mail to ${stack.farmAddress}. The mail server took it.`,
          `Reading: Nothing answered at localhost, port ${closed}: check the server’s name and port.`,
        ])

        // Right: both work; saved, the site reads the mailbox and sends through the provider.
        await fillAccount(page, stack, stack.login.password)
        await field(page, 'Reading (IMAP) Port').fill(reading!.port)
        await tryBoth(page)
        await expect(mailForm(page).getByRole('status').getByRole('listitem')).toHaveText([
          `Sending: Sent a test mail to ${stack.farmAddress}. The mail server took it.`,
          'Reading: Signed in to localhost and opened INBOX. Nothing in it was read or changed.',
        ])
        await expect(mailForm(page).getByRole('status')).toContainText('Not saved yet: Save keeps these settings.')
        await fillAccount(page, stack, stack.login.password)
        await mailForm(page).getByRole('button', { name: 'Save mail' }).click()
        await expect(page).toHaveURL(/\/farm-sales\/settings\?saved=mail#mail$/)
        await expect(mailForm(page).getByText('Saved. It is used from the next mail, push or page.')).toBeVisible()
        await expect(mailForm(page).getByLabel('Your mail provider')).toHaveValue('this-machine')
        await expect.poll(() => mailboxState(server), { timeout: 15_000 }).toBe('watching')

        // A lead: its mail reaches the farm's mailbox; the owner's answer reaches the visitor, whose answer joins the card.
        const lead = await fetch(`${server.url}/api/submissions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'Ann Baker', email: 'ann@remote.test', message: 'Two dozen eggs on Saturday?' }),
        })
        expect(lead.status).toBe(201)
        const id = ((await lead.json()) as { data: { id: number } }).data.id
        await expect
          .poll(async () => (await stack.messages()).map((message) => message.subject).join('\n'), { timeout: 20_000 })
          .toContain('Ann Baker')
        await open(page, '/farm-sales')
        const card = page.locator(`#submission-${id}`)
        await card.locator('summary', { hasText: 'Reply' }).click()
        await card.getByLabel('Reply to Ann Baker').fill('Yes, Ann: two dozen on Saturday.')
        await card.getByRole('button', { name: 'Send reply' }).click()
        await expect
          .poll(() => stack.remote.mails.filter((mail) => mail.subject?.startsWith('Re:')).length, { timeout: 20_000 })
          .toBe(1)
        const reply = stack.remote.mails.find((mail) => mail.subject?.startsWith('Re:'))!
        await stack.send({
          from: 'ann@remote.test',
          to: stack.farmAddress,
          subject: `Re: ${reply.subject}`,
          inReplyTo: reply.messageId,
          references: [reply.messageId!],
          text: 'Lovely, see you Saturday.',
        })
        await expect
          .poll(
            async () => {
              await open(page, '/farm-sales')
              return page.locator(`#submission-${id}`).getByTestId('reply').allTextContents()
            },
            { timeout: 20_000 },
          )
          .toContainEqual(expect.stringContaining('Lovely, see you Saturday.'))
      })
    })
  }
}

test.describe('a real owner’s page', () => {
  test.use({ serverEnv: { TEST_MAIL_PROVIDER: '' } })

  test('lists the providers farmers use, never the tests’ one, and names no variable', async ({ page }) => {
    await openHydrated(page, '/farm-sales/settings')
    await expect(mailForm(page).getByLabel('Your mail provider').getByRole('option')).toHaveText([
      'Choose…',
      'Gmail or Google Workspace',
      'Outlook.com or Hotmail',
      'Microsoft 365 (work or school)',
      'iCloud Mail',
      'Yahoo Mail',
      'Fastmail',
      'Zoho Mail',
      'GMX',
      'WEB.DE',
      'OVHcloud',
      'IONOS',
      'Another provider',
    ])
    await mailForm(page).getByLabel('Your mail provider').selectOption({ label: 'Gmail or Google Workspace' })
    await expect(field(page, 'Sending (SMTP) Server')).toHaveValue('smtp.gmail.com')
    await expect(field(page, 'Reading (IMAP) Server')).toHaveValue('imap.gmail.com')
    await expect(mailForm(page).getByRole('link', { name: 'Make an app password at Google' })).toHaveAttribute(
      'href',
      'https://myaccount.google.com/apppasswords',
    )
    await expect(page.locator('main')).not.toContainText(/SMTP_|IMAP_|NOTIFY_|VAPID|DKIM_|_URL|openssl/)
    await expect(page.getByRole('navigation', { name: 'Sections' }).getByRole('link')).toHaveText([
      'The farm',
      'Mail',
      'Notifications',
      'Updates',
      'Orders',
      'Team',
      'Advanced',
    ])
  })
})

test.describe('a site whose environment sends the mail', () => {
  test.use({ serverEnv: { TEST_MAIL_PROVIDER: '', SMTP_URL: 'smtp://farm:hay-7@127.0.0.1:2525', NOTIFY_EMAIL: '' } })

  test('locks the sending half, shows the reading account apart, and folds Advanced until it is wanted', async ({
    page,
  }) => {
    await openHydrated(page, '/farm-sales/settings')
    const sending = field(page, 'Sending (SMTP) Server')
    await expect(sending).toBeDisabled()
    await expect(sending).toHaveValue('127.0.0.1')
    await expect(mailForm(page).getByText('Set where the site runs (SMTP_URL)')).toHaveCount(5)
    // The environment's account sends; the reading half signs in with its own.
    await expect(field(page, 'Reading (IMAP) User name')).toBeEditable()
    await expect(mailForm(page).getByText('Reading (IMAP) Password')).toBeVisible()
    await expect(page.locator('main')).not.toContainText('hay-7')

    // Advanced is folded; a link to one of its sections opens it, and it is clean for axe open.
    const advanced = page.locator('#advanced')
    await expect(advanced).not.toHaveAttribute('open')
    await expect(page.locator('#backups')).toBeHidden()
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Advanced' }).click()
    await expect(advanced).toHaveAttribute('open')
    await expect(page.getByRole('heading', { level: 3 })).toHaveText([
      'Webhook',
      'Backups',
      'Retention',
      'Digest window',
      'Signing',
      'Phone',
    ])
    await expectAxeClean(page)
    await page.goto('/farm-sales/settings#retention')
    await expect(page.locator('#retention')).toBeVisible()
  })
})

test.describe('without JavaScript, Advanced', () => {
  test.use({ javaScriptEnabled: false, serverEnv: { TEST_MAIL_PROVIDER: '' } })

  test('stays open after one of its sections is saved, and opens with a click of its own', async ({ page }) => {
    await page.goto('/farm-sales/settings')
    await expect(page.locator('#digest')).toBeHidden()
    await page.locator('#advanced > summary').click()
    await page.locator('#digest').getByLabel('Digest window, in seconds').fill('900')
    await page.locator('#digest').getByRole('button', { name: 'Save digest window' }).click()
    await expect(page).toHaveURL(/\?saved=digest#digest$/)
    await expect(page.locator('#digest').getByRole('status')).toHaveText(
      'Saved. It is used from the next mail, push or page.',
    )
    await expect(page.locator('#digest').getByLabel('Digest window, in seconds')).toHaveValue('900')
    await expectNothingOverflows(page)
  })
})
