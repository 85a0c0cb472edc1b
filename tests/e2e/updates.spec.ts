import AxeBuilder from '@axe-core/playwright'
import type { MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import type { RunningServer } from '#tests/support/server'
import { expect, openHydrated, postSubmission, updatesSiteTest, type Page } from './fixtures'

/** A site with UPDATES on, mailing through a real SMTP server on loopback, and a signed-in owner's browser. */
const test = updatesSiteTest.extend<{ owner: Page }>({
  owner: async ({ browser, server, javaScriptEnabled }, use) => {
    const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled })
    const [name, value] = (await signInAsOwner(server.url, password)).split('=') as [string, string]
    await context.addCookies([{ name, value, url: server.url }])
    await use(await context.newPage())
    await context.close()
  },
})

/** A visitor writes about eggs and, from the link in the mail that asks, says yes in their browser. */
async function visitorSaysYes(page: Page, server: RunningServer, mail: MailServer, email: string, jsOn: boolean) {
  await postSubmission(server, { name: 'Ann Baker', email, message: 'Could I order two dozen eggs?' })
  await expect.poll(() => mail.mails.some((sent) => sent.text?.includes('/updates/confirm?token='))).toBe(true)
  const asked = mail.mails.find((sent) => sent.text?.includes('/updates/confirm?token='))!
  const link = /http:\/\/\S+\/updates\/confirm\?token=\S+/.exec(asked.text!)![0]
  if (jsOn) await openHydrated(page, link)
  else await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Updates from Bramble Hill Farm' })).toBeVisible()
  await page.getByRole('button', { name: 'Yes, send me updates' }).click()
  await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible()
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('the owner aims an update at eggs, sees the mail as it goes out, asks once more, and watches the report', async ({
      page,
      owner,
      server,
      mail,
    }) => {
      await visitorSaysYes(page, server, mail, 'ann@example.com', javaScriptEnabled)
      if (javaScriptEnabled) await openHydrated(owner, '/farm-sales')
      else await owner.goto('/farm-sales')
      await owner.getByRole('link', { name: 'Updates', exact: true }).click()
      await expect(owner.getByRole('heading', { name: 'Updates and offers', level: 1 })).toBeVisible()
      await expect(owner.getByText('1 subscribed')).toBeVisible()
      await expect(owner.getByTestId('subscriber')).toContainText('ann@example.com')
      await owner.getByLabel('Subject').fill('Duck eggs are back')
      await owner
        .getByLabel('Text', { exact: true })
        .fill('Hello {name},\n\nThe ducks are laying: https://bramble.example/eggs.')
      await owner.getByLabel('eggs').check()
      if (javaScriptEnabled) {
        await expect(owner.getByTestId('audience-count')).toHaveText('Goes to 1 subscriber.')
        await owner.getByRole('button', { name: 'Send to 1 subscriber…' }).click()
      } else {
        await owner.getByRole('button', { name: 'Send…' }).click()
      }
      const review = owner.getByTestId('review')
      await expect(review.getByRole('heading')).toHaveText('Send “Duck eggs are back” to 1 subscriber now?')
      await expect(review.getByLabel('The mail as plain text')).toContainText('Hello Ann Baker,')
      await expect(review.getByLabel('The mail as plain text')).toContainText('Unsubscribe in one click: http://')
      const html = owner.frameLocator('iframe[title="The mail as HTML"]')
      await expect(html.getByRole('link', { name: 'https://bramble.example/eggs' })).toBeVisible()
      await expect(owner.getByLabel('Subject')).toHaveValue('Duck eggs are back')
      expect(mail.mails.filter((sent) => sent.subject === 'Duck eggs are back')).toHaveLength(0)

      await review.getByRole('button', { name: 'Yes, send to 1 subscriber' }).click()
      await expect(owner.getByText('“Duck eggs are back” is on its way to 1 subscriber.')).toBeVisible()
      await expect.poll(() => mail.mails.filter((sent) => sent.subject === 'Duck eggs are back').length).toBe(1)
      const report = owner.getByTestId('update-report').filter({ hasText: 'Duck eggs are back' })
      // With JavaScript the report follows the mails by itself; without, the owner reloads.
      if (!javaScriptEnabled) await owner.reload()
      await expect(report.getByText('Sent').locator('..')).toContainText('1')
      await expect(owner.getByLabel('Subject')).toHaveValue('')
      if (javaScriptEnabled) {
        const results = await new AxeBuilder({ page: owner }).analyze()
        expect(results.violations).toEqual([])
      }
    })

    test('a subscriber unsubscribes from the link in their mail with one button, and can undo it', async ({
      page,
      server,
      mail,
      owner,
    }) => {
      await visitorSaysYes(page, server, mail, 'ann@example.com', javaScriptEnabled)
      const sent = await owner.request.post('/api/updates', {
        data: { subject: 'Plums', text: 'Plums are ripe.' },
        headers: { Origin: server.url },
      })
      expect(sent.status()).toBe(202)
      await expect.poll(() => mail.mails.filter((each) => each.subject === 'Plums').length).toBe(1)
      const update = mail.mails.find((each) => each.subject === 'Plums')!
      const link = /Unsubscribe in one click: (\S+)/.exec(update.text!)![1]!
      if (javaScriptEnabled) await openHydrated(page, link)
      else await page.goto(link)
      await expect(page.getByRole('heading', { name: 'Unsubscribe from Bramble Hill Farm’s updates' })).toBeVisible()
      await page.getByRole('button', { name: 'Unsubscribe' }).click()
      await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible()
      await expect(page.getByText('ann@example.com will get no more updates from Bramble Hill Farm.')).toBeVisible()
      await page.getByRole('button', { name: 'Undo: send me updates again' }).click()
      await expect(page.getByRole('heading', { name: 'You are subscribed again' })).toBeVisible()
      if (javaScriptEnabled) {
        const results = await new AxeBuilder({ page }).analyze()
        expect(results.violations).toEqual([])
      }
    })
  })
}
