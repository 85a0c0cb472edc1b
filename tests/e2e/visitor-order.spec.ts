import AxeBuilder from '@axe-core/playwright'
import { readRows } from '#tests/support/database'
import { dayFromToday, publishFindUs, seedOrder } from '#tests/support/orders'
import type { RunningServer } from '#tests/support/server'
import { animationsEnded, expect, openHydrated, test, type Page } from './fixtures'

async function expectNoViolations(page: Page) {
  await animationsEnded(page)
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
  ).toEqual([])
}

const bramble = {
  address: 'Bramble Hill Farm\nLong Lane, Ashby',
  directions: 'The second gate after the church.',
  phone: '+44 1632 960 123',
}

const orderStatus = (server: RunningServer) => readRows(server.databasePath, 'SELECT status FROM orders')[0]
const eggsLeft = (server: RunningServer) =>
  readRows(server.databasePath, "SELECT stock FROM week_list WHERE product = 'eggs'")[0]

for (const [width, height] of [
  [1280, 900],
  [375, 740],
] as const) {
  test.describe(`the visitor’s order at ${width} px`, () => {
    test.use({ viewport: { width, height } })

    test('with JavaScript: the order, where and when, pay at pick-up; cancelled in one click', async ({
      page,
      server,
    }) => {
      publishFindUs(server.databasePath, bramble)
      const { token } = seedOrder(server.databasePath, { pickUpDate: dayFromToday(4), eggsLeft: 3 })
      await openHydrated(page, `/order?token=${token}`)
      await expect(page.getByRole('heading', { name: 'Your order from Bramble Hill Farm' })).toBeVisible()
      await expect(page.getByRole('main').getByRole('listitem')).toHaveText(['2 dozen eggs€8', '1 jar of honey€5.50'])
      await expect(
        page.getByText('You pay at pick-up: there is nothing to pay online and no account to make.'),
      ).toBeVisible()
      await expect(page.getByText('Long Lane, Ashby')).toBeVisible()
      await expectNoViolations(page)
      await page.getByRole('button', { name: 'Cancel my order' }).click()
      await expect(page.getByRole('status')).toHaveText('Your order is cancelled. Bramble Hill Farm has been told.')
      await expect(page.getByRole('button', { name: 'Cancel my order' })).toHaveCount(0)
      expect(orderStatus(server)).toEqual({ status: 'cancelled' })
      expect(eggsLeft(server)).toEqual({ stock: 5 })
      await expectNoViolations(page)
    })

    test('after the cut-off: until when it could be cancelled, and the farm’s phone', async ({ page, server }) => {
      publishFindUs(server.databasePath, bramble)
      const { token } = seedOrder(server.databasePath, { pickUpDate: dayFromToday(0) })
      await openHydrated(page, `/order?token=${token}`)
      await expect(
        page.getByText(
          /^It could be cancelled here until \w+day .* at 18:00\. To change it now, call Bramble Hill Farm on \+44 1632 960 123 or answer the mail that confirmed it\.$/,
        ),
      ).toBeVisible()
      await expect(page.getByRole('link', { name: '+44 1632 960 123' })).toHaveAttribute('href', 'tel:+441632960123')
      await expect(page.getByRole('button', { name: 'Cancel my order' })).toHaveCount(0)
      await expectNoViolations(page)
    })

    test('a link that is not one: said plainly', async ({ page }) => {
      const answer = await page.goto('/order?token=1.not-a-signature')
      expect(answer?.status()).toBe(404)
      await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible()
      await expectNoViolations(page)
    })

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false })

      test('the page’s form cancels, and the page says so', async ({ page, server }) => {
        const { token } = seedOrder(server.databasePath, { pickUpDate: dayFromToday(4) })
        await page.goto(`/order?token=${token}`)
        await page.getByRole('button', { name: 'Cancel my order' }).click()
        await expect(page.getByRole('status')).toHaveText('Your order is cancelled. Bramble Hill Farm has been told.')
        expect(orderStatus(server)).toEqual({ status: 'cancelled' })
        // Opened again, the link shows it as it is now, with nothing more to do.
        await page.goto(`/order?token=${token}`)
        await expect(page.getByText('This order is cancelled.')).toBeVisible()
        await expect(page.getByRole('button', { name: 'Cancel my order' })).toHaveCount(0)
      })
    })
  })
}
