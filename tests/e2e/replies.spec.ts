import AxeBuilder from '@axe-core/playwright'
import { test as base } from '@playwright/test'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password } from '#tests/support/owner'
import { startServer, type RunningServer } from '#tests/support/server'
import { animationsEnded, expect, farmEnv, openHydrated, postSubmission, signInContext, type Page } from './fixtures'

/**
 * A signed-in owner's browser on a site that mails through a real SMTP server on loopback,
 * which takes each mail only once `release` is called (`refusing` addresses get a 550).
 */
const test = base.extend<{
  mail: MailServer & { release(): void; refusing: Set<string> }
  server: RunningServer
}>({
  // Playwright reads a fixture's needs from its first parameter's pattern: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  mail: async ({}, use) => {
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const refusing = new Set<string>()
    const mail = await startMailServer({ holdUntil: held, refuseRecipient: (address) => refusing.has(address) })
    await use(Object.assign(mail, { release, refusing }))
    release()
    await mail.close()
  },
  server: async ({ mail }, use) => {
    const server = await startServer({
      env: { ...farmEnv, OWNER_PASSWORD: password, SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@bramble.example' },
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

const cardOf = (page: Page, name: string) => page.getByTestId('submission-card').filter({ hasText: name })
/** The card's reply box, unfolded. */
async function replyBox(card: ReturnType<typeof cardOf>) {
  await card.locator('summary', { hasText: 'Reply' }).click()
  return card
}

test('the owner replies from a card; another tab shows the reply queued, then sent, and the lead handled', async ({
  page,
  context,
  server,
  mail,
}) => {
  await postSubmission(server, { name: 'Ann Baker', email: 'ann@example.com', message: 'Two dozen eggs?' })
  const other = await context.newPage()
  const opened = other.waitForEvent('websocket')
  await openHydrated(other, '/farm-sales')
  await opened
  await openHydrated(page, '/farm-sales')

  const card = await replyBox(cardOf(page, 'Ann Baker'))
  await card.getByLabel('Reply to Ann Baker').fill('Yes, Ann: two dozen on Saturday.')
  await card.getByRole('button', { name: 'Send reply' }).click()
  await expect(card.getByLabel('Reply to Ann Baker')).toHaveValue('')

  const seen = cardOf(other, 'Ann Baker')
  await expect(seen.getByTestId('reply')).toContainText('Yes, Ann: two dozen on Saturday.')
  await expect(seen.getByTestId('delivery')).toHaveText('Queued')
  await expect(seen.getByText('Handled', { exact: true })).toBeVisible()
  mail.release()
  await expect(seen.getByTestId('delivery')).toHaveText(/^Sent \d/)
  await expect(card.getByTestId('delivery')).toHaveText(/^Sent \d/)
  expect(mail.mails.filter((sent) => sent.subject === 'Re: Your message to Bramble Hill Farm')).toHaveLength(1)
})

test('a mail that goes out between the page’s load and its live link opening is shown sent, not left queued', async ({
  page,
  server,
  mail,
}) => {
  const ann = await postSubmission(server, { name: 'Ann Baker', email: 'ann@example.com' })
  const cookie = (await page.context().cookies())[0]!
  const sent = await fetch(`${server.url}/api/submissions/${ann.id}/replies`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: `${cookie.name}=${cookie.value}` },
    body: JSON.stringify({ text: 'Yes, on Saturday.' }),
  })
  expect(sent.status).toBe(201)
  // The live link opens only once the mail has gone: its news was told before anyone listened.
  let connect = () => {}
  const opening = new Promise<void>((resolve) => (connect = resolve))
  await page.routeWebSocket(/.*/, async (socket) => {
    await opening
    socket.connectToServer()
  })
  await openHydrated(page, '/farm-sales')
  await expect(cardOf(page, 'Ann Baker').getByTestId('delivery')).toHaveText('Queued')
  mail.release()
  await expect
    .poll(() => mail.mails.filter((sent) => sent.subject === 'Re: Your message to Bramble Hill Farm').length)
    .toBe(1)
  await expect
    .poll(
      async () =>
        (
          await (
            await fetch(`${server.url}/api/submissions/${ann.id}/replies`, {
              headers: { Cookie: `${cookie.name}=${cookie.value}` },
            })
          ).json()
        ).data[0].state,
    )
    .toBe('sent')
  connect()
  await expect(cardOf(page, 'Ann Baker').getByTestId('delivery')).toHaveText(/^Sent \d/)
})

test('a refused reply shows as failed with the server’s words and in the header, until dismissed', async ({
  page,
  server,
  mail,
}) => {
  mail.refusing.add('ann@example.com')
  mail.release()
  await postSubmission(server, { name: 'Ann Baker', email: 'ann@example.com' })
  await openHydrated(page, '/farm-sales')
  const card = await replyBox(cardOf(page, 'Ann Baker'))
  await card.getByLabel('Reply to Ann Baker').fill('Eggs on Saturday.')
  await card.getByRole('button', { name: 'Send reply' }).click()
  await expect(card.getByTestId('delivery')).toHaveText('Failed')
  await expect(card).toContainText('The mail server said: 550 5.1.1 <ann@example.com>: Recipient address rejected')
  const header = page.getByRole('navigation', { name: 'Main', exact: true })
  await expect(header.getByTestId('failed-replies')).toHaveText('1 failed')
  await card.getByRole('button', { name: 'Dismiss' }).click()
  await expect(card.getByTestId('delivery')).toHaveText('Failed (dismissed)')
  await expect(header.getByTestId('failed-replies')).toHaveCount(0)
})

test('a saved reply, chosen on a card, fills the box with the visitor’s name, the farm and the products asked about', async ({
  page,
  server,
  mail,
}) => {
  mail.release()
  await postSubmission(server, { name: 'Cy Cole', email: 'cy@example.com', message: 'Do you have honey and eggs?' })
  await openHydrated(page, '/farm-sales/saved-replies')
  const fresh = page.getByTestId('saved-reply').last()
  await fresh.getByLabel('Name').fill('Stock this week')
  await fresh.getByLabel('Text').fill('Hello {name}, {farm} has {price} this week.')
  await fresh.getByRole('button', { name: 'Save new reply' }).click()
  await expect(fresh.getByRole('alert')).toHaveText(
    'Not saved: {price} is not a placeholder this text can fill: use {name}, {farm} or {products}.',
  )
  await fresh.getByLabel('Text').fill('Hello {name}, {farm} has {products} this week.')
  await fresh.getByRole('button', { name: 'Save new reply' }).click()
  await expect(page.getByTestId('saved-reply')).toHaveCount(2)
  await expect(page.getByTestId('saved-reply').first().getByLabel('Name')).toHaveValue('Stock this week')

  await openHydrated(page, '/farm-sales')
  const card = await replyBox(cardOf(page, 'Cy Cole'))
  await card.getByLabel('Saved reply').selectOption({ label: 'Stock this week' })
  await expect(card.getByLabel('Reply to Cy Cole')).toHaveValue(
    /^Hello Cy Cole, Bramble Hill Farm has (eggs and honey|honey and eggs) this week\.$/,
  )
  await card.getByRole('button', { name: 'Send reply' }).click()
  await expect(card.getByTestId('delivery')).toHaveText(/^Sent \d/)
})

test('a card with its history and open reply box, and the saved replies page with an error, pass axe at 1280 and 375 px', async ({
  page,
  server,
  mail,
}) => {
  // Two pages, each read by axe at two widths: about 25 s on a busy machine, past the usual 30 s limit's comfort.
  test.setTimeout(60_000)
  mail.refusing.add('bo@example.com')
  mail.release()
  const bo = await postSubmission(server, { name: 'Bo Carter', email: 'bo@example.com' })
  const ann = await postSubmission(server, { name: 'Ann Baker', email: 'ann@example.com' })
  const cookie = (await page.context().cookies())[0]!
  for (const id of [bo.id, ann.id]) {
    const sent = await fetch(`${server.url}/api/submissions/${id}/replies`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: `${cookie.name}=${cookie.value}` },
      body: JSON.stringify({ text: 'Yes, on Saturday.' }),
    })
    expect(sent.status).toBe(201)
  }
  const violations = async () => {
    await animationsEnded(page)
    const found = await new AxeBuilder({ page }).analyze()
    return found.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`,
    )
  }
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 })
    await openHydrated(page, '/farm-sales')
    await expect(cardOf(page, 'Bo Carter').getByTestId('delivery')).toHaveText('Failed')
    await expect(cardOf(page, 'Ann Baker').getByTestId('delivery')).toHaveText(/^Sent \d/)
    await replyBox(cardOf(page, 'Ann Baker'))
    expect(await violations()).toEqual([])
    await openHydrated(page, '/farm-sales/saved-replies')
    await page.getByTestId('saved-reply').last().getByLabel('Text').fill('{price}')
    await page.getByTestId('saved-reply').last().getByLabel('Name').fill('Prices')
    await page.getByRole('button', { name: 'Save new reply' }).click()
    await expect(page.getByRole('alert')).toContainText('{price} is not a placeholder')
    expect(await violations()).toEqual([])
  }
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the card’s reply form sends, and a blank one is refused on its card with the reason', async ({
    page,
    server,
    mail,
  }) => {
    mail.release()
    await postSubmission(server, { name: 'Dot Pruitt', email: 'dot@example.com' })
    await page.goto('/farm-sales')
    const card = await replyBox(cardOf(page, 'Dot Pruitt'))
    await card.getByLabel('Reply to Dot Pruitt').fill('   ')
    await card.getByRole('button', { name: 'Send reply' }).click()
    // The refused reply comes back on its card, the box open and the text kept.
    await expect(cardOf(page, 'Dot Pruitt').getByRole('alert')).toHaveText('Not sent: Write a reply first.')
    await expect(cardOf(page, 'Dot Pruitt').getByLabel('Reply to Dot Pruitt')).toHaveValue('   ')

    await cardOf(page, 'Dot Pruitt').getByLabel('Reply to Dot Pruitt').fill('We deliver on Thursdays.')
    await cardOf(page, 'Dot Pruitt').getByRole('button', { name: 'Send reply' }).click()
    await expect(page).toHaveURL(/\/farm-sales#submission-1$/)
    await expect(cardOf(page, 'Dot Pruitt').getByTestId('reply')).toContainText('We deliver on Thursdays.')
    await expect(cardOf(page, 'Dot Pruitt').getByText('Handled', { exact: true })).toBeVisible()
    // Without JavaScript the card changes only when the page is read again: read until it says sent.
    // (The first mail the server takes may be the owner's about the lead, and the reply is marked
    // sent a moment after the server takes it.)
    await expect
      .poll(async () => {
        await page.reload()
        return cardOf(page, 'Dot Pruitt').getByTestId('delivery').textContent()
      })
      .toMatch(/^Sent \d/)
  })
})
