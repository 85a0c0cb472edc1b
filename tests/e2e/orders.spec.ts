import AxeBuilder from '@axe-core/playwright'
import { test as base } from '@playwright/test'
import { readRows } from '#tests/support/database'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { dayFromToday, eggsAndHoney, postOrderLead, setWeekList } from '#tests/support/orders'
import { ownerPassword } from '#tests/support/owner'
import { startServer, type RunningServer } from '#tests/support/server'
import { animationsEnded, expect, farmEnv, openHydrated, signInContext, type Page } from './fixtures'

/** A signed-in owner's browser on a site that mails through a real SMTP server on loopback, with eggs and honey on the list. */
const test = base.extend<{ mail: MailServer; server: RunningServer }>({
  // Playwright reads a fixture's needs from its first parameter's pattern: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  mail: async ({}, use) => {
    const mail = await startMailServer()
    await use(mail)
    await mail.close()
  },
  server: async ({ mail }, use) => {
    const server = await startServer({
      env: {
        ...farmEnv,
        OWNER_PASSWORD: ownerPassword,
        SMTP_URL: mail.url,
        NOTIFY_EMAIL: 'owner@bramble.example',
        FARM_PRODUCTS: 'eggs, honey',
      },
    })
    setWeekList(server.databasePath, [
      { product: 'eggs', priceCents: 400, unit: 'a dozen', stock: 10 },
      { product: 'honey', priceCents: 550, unit: 'a jar', stock: null },
    ])
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
const day = dayFromToday(3)
const mailsTo = (mail: MailServer, address: string) =>
  mail.mails.filter((sent) => sent.to && !Array.isArray(sent.to) && sent.to.value[0]?.address === address)

/** Changes the card's order, drafts the confirmation and sends it, as the team does. */
async function confirmOnCard(page: Page, name: string, { eggs }: { eggs: string }) {
  const card = cardOf(page, name)
  await card.locator('summary', { hasText: 'Confirm…' }).click()
  await card.getByLabel('Quantity, line 1').fill(eggs)
  await card.getByRole('button', { name: 'Draft the confirmation' }).click()
  const confirmation = card.getByLabel(`Confirmation to ${name}`)
  await expect(confirmation).toHaveValue(new RegExp(`- ${eggs} dozen eggs: €`))
  return { card, confirmation }
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('the owner changes the order read on a card, drafts the confirmation, changes it and confirms in one tap', async ({
      page,
      server,
      mail,
    }) => {
      await postOrderLead(
        server,
        { name: 'Ann Baker', email: 'ann@example.com', message: 'Two dozen eggs and 3 jars of honey' },
        eggsAndHoney(day),
      )
      await (javaScriptEnabled ? openHydrated(page, '/farm-sales') : page.goto('/farm-sales'))
      const read = cardOf(page, 'Ann Baker').getByTestId('order-read')
      await expect(read).toContainText('2 dozen eggs · 3 jars of honey · for')
      await expect(read.getByTestId('order-total')).toHaveText('Total €24.50')
      // Drafted, then set aside to change the order again.
      await confirmOnCard(page, 'Ann Baker', { eggs: '5' })
      await cardOf(page, 'Ann Baker').getByRole('button', { name: 'Change the order' }).click()
      await expect(cardOf(page, 'Ann Baker').getByTestId('order-draft')).toHaveCount(0)
      const { card, confirmation } = await confirmOnCard(page, 'Ann Baker', { eggs: '4' })
      await expect(card.getByTestId('order-total')).toHaveText('Total €32.50')
      await confirmation.fill(`${await confirmation.inputValue()}\nP.S. The gate sticks.`)
      await card.getByRole('button', { name: 'Confirm and send' }).click()
      await expect(card.getByTestId('order-confirmed')).toContainText('Order confirmed')
      await expect(card.getByTestId('order-confirmed')).toContainText('4 dozen eggs · 3 jars of honey')
      await expect(card).toContainText('P.S. The gate sticks.')
      await expect.poll(() => mailsTo(mail, 'ann@example.com').length, { timeout: 10_000 }).toBe(1)
      expect(mailsTo(mail, 'ann@example.com')[0]!.text).toMatch(
        /Total: €32\.50, to pay at pick-up\.[\s\S]*\/order\?token=1\./,
      )
      expect(readRows(server.databasePath, "SELECT stock FROM week_list WHERE product = 'eggs'")).toEqual([
        { stock: 6 },
      ])
    })

    test('the owner counts what is left on the week’s list; at nothing the home page says sold out', async ({
      page,
    }) => {
      await (javaScriptEnabled ? openHydrated(page, '/farm-sales/this-week') : page.goto('/farm-sales/this-week'))
      const eggs = page.getByRole('form', { name: 'Eggs' })
      await eggs.locator('summary').click()
      await expect(eggs.getByLabel(/^Left/)).toHaveValue('10')
      await eggs.getByLabel(/^Left/).fill('0')
      await eggs.getByRole('button', { name: 'Save' }).click()
      await expect(page.getByRole('form', { name: 'Eggs' }).getByRole('status')).toHaveText(
        'Saved: it is on the home page.',
      )
      await expect(page.getByRole('form', { name: 'Eggs' }).locator('summary')).toContainText('€4 a dozen · 0 left')
      await page.goto('/')
      const listed = page.locator('#this-week li').filter({ hasText: 'Eggs' })
      await expect(listed).toContainText('Sold out')
    })
  })
}

test('two owners racing for the last dozen eggs: one order is confirmed, the other refused in words, none below zero', async ({
  page,
  browser,
  server,
  mail,
}) => {
  setWeekList(server.databasePath, [{ product: 'eggs', priceCents: 400, unit: 'a dozen', stock: 1 }])
  const oneDozen = {
    lines: [{ product: 'eggs', quantity: 1, unit: 'dozen' }],
    unplaced: [],
    when: eggsAndHoney(day).when,
  }
  await postOrderLead(server, { name: 'Ann Baker', email: 'ann@example.com', message: 'A dozen eggs' }, oneDozen)
  await postOrderLead(server, { name: 'Bo Carter', email: 'bo@example.com', message: 'A dozen eggs' }, oneDozen)
  // A second browser of its own, signed in apart.
  const second = await browser.newContext()
  await signInContext(second, server)
  const other = await second.newPage()
  await Promise.all([openHydrated(page, '/farm-sales'), openHydrated(other, '/farm-sales')])
  const first = await confirmOnCard(page, 'Ann Baker', { eggs: '1' })
  const racing = await confirmOnCard(other, 'Bo Carter', { eggs: '1' })
  await Promise.all([
    first.card.getByRole('button', { name: 'Confirm and send' }).click(),
    racing.card.getByRole('button', { name: 'Confirm and send' }).click(),
  ])
  const outcome = async (card: typeof first.card) => {
    await expect(card.getByTestId('order-confirmed').or(card.getByRole('alert'))).toBeVisible()
    return (await card.getByTestId('order-confirmed').count()) > 0
      ? 'confirmed'
      : await card.getByRole('alert').innerText()
  }
  const outcomes = [await outcome(first.card), await outcome(racing.card)].sort()
  expect(outcomes).toEqual(['Not done: Eggs are sold out: change the order or decline it.', 'confirmed'])
  expect(readRows(server.databasePath, "SELECT stock FROM week_list WHERE product = 'eggs'")).toEqual([{ stock: 0 }])
  expect(readRows(server.databasePath, 'SELECT count(*) AS n FROM orders')).toEqual([{ n: 1 }])
  await expect
    .poll(() => mailsTo(mail, 'ann@example.com').length + mailsTo(mail, 'bo@example.com').length, { timeout: 10_000 })
    .toBe(1)
  // The other browser is told live: the winner's card there shows the order confirmed.
  const [winner] = readRows<{ name: string }>(
    server.databasePath,
    'SELECT s.name FROM orders o JOIN submissions s ON s.id = o.submission_id',
  )
  for (const each of [page, other])
    await expect(cardOf(each, winner!.name).getByTestId('order-confirmed')).toBeVisible()
  await second.close()
  // Taken down to nothing, the eggs are sold out on the home page.
  await page.goto('/')
  await expect(page.locator('#this-week li').filter({ hasText: 'Eggs' })).toContainText('Sold out')
})

test('the card with an order, its draft and its decline have no accessibility violations at 1280 and 375 px', async ({
  page,
  server,
}) => {
  await postOrderLead(
    server,
    { name: 'Ann Baker', email: 'ann@example.com', message: 'Two dozen eggs and 3 jars of honey' },
    eggsAndHoney(day),
  )
  const violations = async () => {
    await animationsEnded(page)
    const found = await new AxeBuilder({ page }).include('[data-testid="submission-card"]').analyze()
    return found.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`,
    )
  }
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 })
    await openHydrated(page, '/farm-sales')
    const card = cardOf(page, 'Ann Baker')
    await card.locator('summary', { hasText: 'Decline…' }).click()
    await card.locator('summary', { hasText: 'Confirm…' }).click()
    expect(await violations()).toEqual([])
    await card.getByRole('button', { name: 'Draft the confirmation' }).click()
    await expect(card.getByTestId('order-draft')).toBeVisible()
    expect(await violations()).toEqual([])
  }
})
