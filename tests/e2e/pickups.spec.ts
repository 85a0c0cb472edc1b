import AxeBuilder from '@axe-core/playwright'
import { dayFromToday, placeOrders, type PlacedOrder } from '#tests/support/orders'
import { ownerPassword } from '#tests/support/owner'
import { animationsEnded, expect, openHydrated, signInContext, test, type Page } from './fixtures'

const teamSite = test.extend({
  serverEnv: { OWNER_PASSWORD: ownerPassword },
  context: async ({ context, server }, use) => {
    await signInContext(context, server)
    await use(context)
  },
})

const today = dayFromToday(0)
const morning: PlacedOrder[] = [
  {
    name: 'Bea Late',
    date: today,
    from: '11:00',
    to: '12:00',
    lines: [{ product: 'honey', quantity: 3, unit: 'jar' }],
  },
  {
    name: 'Ann Early',
    date: today,
    from: '09:00',
    to: '10:00',
    lines: [
      { product: 'eggs', quantity: 2, unit: 'dozen', priceCents: 900 },
      { product: 'honey', quantity: 1, unit: 'jar', priceCents: 550 },
    ],
  },
]

const orderRow = (page: Page, name: string) => page.getByRole('listitem').filter({ hasText: name })

for (const javaScriptEnabled of [true, false]) {
  teamSite.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    teamSite.use({ javaScriptEnabled })

    teamSite(
      'the team reads today’s pick-ups by time with the packing list, and marks one collected',
      async ({ page, server }) => {
        placeOrders(server.databasePath, morning)
        await page.goto('/farm-sales')
        await page.getByRole('link', { name: 'Pick-ups' }).first().click()
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pick-ups')
        await expect(page.getByRole('region', { name: 'Packing list' }).getByRole('listitem')).toHaveText([
          '2 dozen eggs (1 order)',
          '4 jars of honey (2 orders)',
        ])
        const orders = page.getByRole('region', { name: 'Orders' }).getByRole('listitem')
        await expect(orders).toHaveCount(2)
        await expect(orders.first()).toContainText('9:00–10:00Ann Early2 dozen eggs · 1 jar of honey€14.50To collect')
        await expect(orders.last()).toContainText('11:00–12:00Bea Late')

        await orderRow(page, 'Ann Early').getByRole('button', { name: 'Mark collected: Ann Early' }).click()
        await expect(orderRow(page, 'Ann Early')).toContainText('Collected')
        await expect(
          orderRow(page, 'Ann Early').getByRole('button', { name: 'Mark collected: Ann Early' }),
        ).toHaveCount(0)
        await expect(page.getByText(/orders, 1 collected$/)).toBeVisible()
        await expect(page.getByRole('button', { name: 'Print' })).toHaveCount(javaScriptEnabled ? 1 : 0)
      },
    )
  })
}

teamSite('a mark in one tab shows at once in every other open tab', async ({ context, server }) => {
  placeOrders(server.databasePath, morning)
  const first = await context.newPage()
  const second = await context.newPage()
  await openHydrated(first, '/farm-sales/pickups')
  await openHydrated(second, '/farm-sales/pickups')
  await expect(orderRow(second, 'Bea Late')).toContainText('To collect')
  await orderRow(first, 'Bea Late').getByRole('button', { name: 'Mark not collected: Bea Late' }).click()
  await expect(orderRow(second, 'Bea Late')).toContainText('Not collected')
  // Not collected is not packed: the honey is Ann's one jar now.
  await expect(second.getByRole('region', { name: 'Packing list' })).toContainText('1 jar of honey (1 order)')
})

teamSite('prints 30 orders and their packing list on one A4 page, without the menus', async ({ page, server }) => {
  const names = ['Ann', 'Bea', 'Cy', 'Dot', 'Ed', 'Flo']
  placeOrders(
    server.databasePath,
    Array.from({ length: 30 }, (_, n) => ({
      name: `${names[n % names.length]} Longfarmname-Household ${n + 1}`,
      date: today,
      from: `${String(8 + Math.floor(n / 4)).padStart(2, '0')}:00`,
      to: `${String(9 + Math.floor(n / 4)).padStart(2, '0')}:00`,
      lines: [
        { product: 'eggs', quantity: 1 + (n % 3), unit: 'dozen', priceCents: 450 * (1 + (n % 3)) },
        { product: 'honey', quantity: 1, unit: 'jar', priceCents: 550 },
        { product: 'apple juice', quantity: 2, unit: 'bottle', priceCents: 700 },
      ],
    })),
  )
  await openHydrated(page, '/farm-sales/pickups')
  await expect(page.getByRole('region', { name: 'Orders' }).getByRole('listitem')).toHaveCount(30)
  const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true })
  const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []
  expect(pages).toHaveLength(1)
  await page.emulateMedia({ media: 'print' })
  await expect(page.getByRole('banner')).toBeHidden()
  await expect(page.getByRole('button', { name: /^Mark collected/ }).first()).toBeHidden()
})

for (const width of [1280, 375]) {
  teamSite(`has no accessibility violations at ${width} px`, async ({ page, server }) => {
    placeOrders(server.databasePath, [
      ...morning,
      { name: 'Cy Gone', date: today, status: 'not-collected', lines: [{ product: 'eggs', quantity: 6 }] },
    ])
    await page.setViewportSize({ width, height: 900 })
    await openHydrated(page, '/farm-sales/pickups')
    await expect(page.getByRole('region', { name: 'Orders' }).getByRole('listitem')).toHaveCount(3)
    await animationsEnded(page)
    const { violations } = await new AxeBuilder({ page }).analyze()
    expect(
      violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
    ).toEqual([])
    await page.goto('/farm-sales/pickups?days=week')
    await expect(page.getByRole('link', { name: 'Next 7 days' })).toHaveAttribute('aria-current', 'page')
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])
  })
}

teamSite(
  'the insights count the orders of each week, the not collected and the products ordered',
  async ({ page, server }) => {
    placeOrders(server.databasePath, [
      ...morning,
      { name: 'Cy Gone', date: today, status: 'not-collected', lines: [{ product: 'eggs', quantity: 6 }] },
      { name: 'Di Off', date: today, status: 'cancelled', lines: [{ product: 'eggs', quantity: 9, unit: 'dozen' }] },
    ])
    await openHydrated(page, '/farm-sales/insights?weeks=4')
    const orders = page.getByRole('region', { name: 'Orders', exact: true })
    await expect(orders.getByTestId('summary')).toHaveText('3 orders for pick-up in the last 4 weeks; 1 not collected.')
    await orders.getByText('Show the numbers').click()
    await expect(orders.getByRole('row').last().getByRole('cell')).toHaveText(['3', '1'])
    const products = page.getByRole('region', { name: 'Products ordered', exact: true })
    await expect(products.getByRole('listitem')).toHaveText(['6 eggs', '4 jars of honey', '2 dozen eggs'])
    await animationsEnded(page)
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])
  },
)
