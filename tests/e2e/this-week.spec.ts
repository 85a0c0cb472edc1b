import AxeBuilder from '@axe-core/playwright'
import type { Browser } from '@playwright/test'
import type { MailServer } from '#tests/support/mail-server'
import type { RunningServer } from '#tests/support/server'
import { animationsEnded, expect, openHydrated, signInContext, updatesSiteTest as test, type Page } from './fixtures'

const shots = '/work/shots/this-week'

/** The owner's phone (375 px), signed in. */
async function ownerPhone(browser: Browser, server: RunningServer, javaScriptEnabled: boolean) {
  const context = await browser.newContext({
    baseURL: server.url,
    javaScriptEnabled,
    viewport: { width: 375, height: 800 },
  })
  await signInContext(context, server)
  return context.newPage()
}

async function expectNoViolations(page: Page) {
  await animationsEnded(page)
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
  ).toEqual([])
}

const open = (page: Page, path: string, jsOn: boolean) => (jsOn ? openHydrated(page, path) : page.goto(path))

/** One product's card on the editor: a few taps, then Save. */
async function setProduct(
  owner: Page,
  product: string,
  values: { availability: string; price?: string; unit?: string; note?: string },
) {
  const card = owner.getByRole('form', { name: product[0]!.toUpperCase() + product.slice(1) })
  await card.getByText(values.availability, { exact: true }).click()
  // The price and note fold away: the week's most frequent change is one tap and Save.
  if (values.price ?? values.unit ?? values.note) await card.locator('summary').click()
  if (values.price !== undefined) await card.getByLabel('Price (€)').fill(values.price)
  if (values.unit !== undefined) await card.getByLabel('For').fill(values.unit)
  if (values.note !== undefined) await card.getByLabel('Note').fill(values.note)
  await card.getByRole('button', { name: 'Save' }).click()
  await expect(card.getByRole('status')).toHaveText('Saved: it is on the home page.')
}

const confirmLink = (mail: MailServer, to: string) =>
  mail.mails
    .filter((sent) => JSON.stringify(sent.to).includes(to))
    .map((sent) => /http:\/\/\S+\/updates\/confirm\?token=\S+/.exec(sent.text ?? '')?.[0])
    .find(Boolean)

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled, viewport: { width: 1280, height: 900 } })

    test('the owner sets the week on a phone, a visitor asks to be told, confirms, and is told once on Send', async ({
      browser,
      page,
      server,
      mail,
    }) => {
      // Two browsers, a mail round trip and two axe runs on a 2-core machine.
      test.setTimeout(90_000)
      const suffix = javaScriptEnabled ? 'js' : 'nojs'
      const owner = await ownerPhone(browser, server, javaScriptEnabled)
      await open(owner, '/farm-sales/this-week', javaScriptEnabled)
      await expect(owner.getByRole('heading', { name: 'This week at the farm', level: 1 })).toBeVisible()
      await setProduct(owner, 'eggs', {
        availability: 'Available now',
        price: '4',
        unit: 'a dozen',
        note: 'Duck eggs too',
      })
      await setProduct(owner, 'strawberries', { availability: 'Coming soon', price: '5', unit: 'a punnet' })
      await owner.screenshot({ path: `${shots}/editor-375-${suffix}.png`, fullPage: false })
      // axe runs in the page: with JavaScript on.
      if (javaScriptEnabled) await expectNoViolations(owner)

      await open(page, '/', javaScriptEnabled)
      const week = page.getByRole('region', { name: 'This week at the farm' })
      await expect(week.getByText(/^Updated \d{1,2} \w+ 20\d\d$/)).toBeVisible()
      const eggs = week.getByRole('listitem').filter({ hasText: 'Eggs' })
      await expect(eggs).toContainText('€4 a dozen')
      await expect(eggs).toContainText('Available now')
      await expect(eggs).toContainText('Duck eggs too')
      await expect(eggs.getByText('Tell me when it’s ready')).toHaveCount(0)
      const strawberries = week.getByRole('listitem').filter({ hasText: 'Strawberries' })
      await strawberries.getByText('Tell me when it’s ready').click()
      await strawberries.getByLabel('Your name').fill('Ann Baker')
      await strawberries.getByLabel('Your email').fill('ann@example.com')
      await page.screenshot({ path: `${shots}/home-1280-${suffix}.png`, fullPage: true })
      if (javaScriptEnabled) await expectNoViolations(page)
      await strawberries.getByRole('button', { name: 'Tell me' }).click()
      await expect(page.getByRole('status')).toHaveText(
        'Thank you! Check your mail: once you confirm, we will tell you when strawberries are ready.',
      )
      await page.screenshot({ path: `${shots}/tell-me-answer-1280-${suffix}.png` })

      await expect.poll(() => confirmLink(mail, 'ann@example.com')).toBeTruthy()
      await open(page, confirmLink(mail, 'ann@example.com')!, javaScriptEnabled)
      await page.getByRole('button', { name: 'Yes, send me updates' }).click()
      await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible()

      await open(owner, '/farm-sales/this-week', javaScriptEnabled)
      await setProduct(owner, 'strawberries', { availability: 'Available now' })
      await expect(
        owner.getByText('People are waiting for strawberries: the Updates page has their news ready to send.'),
      ).toBeVisible()
      await open(owner, '/farm-sales/updates', javaScriptEnabled)
      const news = owner.getByRole('form', { name: 'Tell them strawberries are ready' })
      await expect(news.getByTestId('waiting-count')).toHaveText(
        '1 person asked to be told when strawberries are ready.',
      )
      await expect(news.getByLabel('Subject')).toHaveValue('Strawberries are ready at Bramble Hill Farm')
      await expect(news.getByLabel('Message')).toHaveValue(/^Strawberries are ready: €5 a punnet\./)
      await owner.screenshot({ path: `${shots}/ready-to-tell-375-${suffix}.png`, fullPage: true })
      // Nothing goes out before Send.
      expect(mail.mails.filter((sent) => sent.subject?.startsWith('Strawberries are ready'))).toHaveLength(0)
      await news.getByRole('button', { name: 'Send' }).click()
      await expect(
        owner.getByText('“Strawberries are ready at Bramble Hill Farm” is on its way to 1 subscriber.'),
      ).toBeVisible()
      await expect
        .poll(() => mail.mails.filter((sent) => sent.subject === 'Strawberries are ready at Bramble Hill Farm').length)
        .toBe(1)
      // Told once this season: no proposal is left.
      await open(owner, '/farm-sales/updates', javaScriptEnabled)
      await expect(owner.getByRole('form', { name: 'Tell them strawberries are ready' })).toHaveCount(0)
      await owner.context().close()
    })
  })
}

test('the week at 375 px: the home page section and the tell-me form fit the phone', async ({ browser, server }) => {
  const owner = await ownerPhone(browser, server, true)
  await openHydrated(owner, '/farm-sales/this-week')
  await setProduct(owner, 'honey', { availability: 'Sold out', price: '8.50', unit: 'a jar' })
  const visitorContext = await browser.newContext({ viewport: { width: 375, height: 800 }, baseURL: server.url })
  const visitor = await visitorContext.newPage()
  await openHydrated(visitor, '/#this-week')
  const honey = visitor.getByRole('listitem').filter({ hasText: 'Honey' })
  await expect(honey).toContainText('€8.50 a jar')
  await expect(honey).toContainText('Sold out')
  await honey.getByText('Tell me when it’s ready').click()
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await honey.screenshot({ path: `${shots}/home-week-375.png` })
  await expectNoViolations(visitor)
  await visitorContext.close()
  await owner.context().close()
})
