import { chromium } from '@playwright/test'
import { chromiumLaunch } from '#tests/support/chromium'
import { startMailServer } from '#tests/support/mail-server'
import { signInAsOwner } from '#tests/support/owner'
import { startServer } from '#tests/support/server'

const password = 'orchard gate at noon'
const mail = await startMailServer({ refuseRecipient: (a) => a === 'bo@example.com' })
const server = await startServer({
  env: {
    FARM_NAME: 'Bramble Hill Farm',
    OWNER_PASSWORD: password,
    SMTP_URL: mail.url,
    NOTIFY_EMAIL: 'owner@bramble.example',
    VISITOR_ACK: 'true',
  },
})
const cookie = await signInAsOwner(server.url, password)
const post = (body: object) =>
  fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json())
const reply = (id: number, text: string) =>
  fetch(`${server.url}/api/submissions/${id}/replies`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify({ text }),
  })
const bo = await post({
  name: 'Bo Carter',
  email: 'bo@example.com',
  message: 'Do you deliver apples to the village on Fridays?',
})
const ann = await post({
  name: 'Ann Baker',
  email: 'ann@example.com',
  message: 'Could I order two dozen eggs and a jar of honey for Saturday morning?',
})
await reply(
  ann.data.id,
  'Hello Ann,\n\nYes — two dozen eggs and a jar of honey will be ready for you on Saturday from 9.\n\nBramble Hill Farm',
)
await reply(bo.data.id, 'Hi Bo, yes: Fridays after 4.')
await fetch(`${server.url}/farm-sales/saved-replies`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
  body: new URLSearchParams({
    intent: 'save',
    name: 'Eggs this week',
    text: 'Hello {name},\n\n{farm} has {products} this week.',
  }).toString(),
  redirect: 'manual',
})
await new Promise((r) => setTimeout(r, 1500))
await post({ name: 'Cy Cole', email: 'cy@example.com', message: 'Any strawberries left?' })
const browser = await chromium.launch(chromiumLaunch)
for (const width of [1280, 375]) {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const [name, value] = cookie.split('=') as [string, string]
  await context.addCookies([{ name, value, url: server.url }])
  const page = await context.newPage()
  await page.goto(`${server.url}/farm-sales`)
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
  await page.waitForTimeout(1500)
  await page.screenshot({ path: `/tmp/shots/inbox-${width}.png`, fullPage: true })
  await page.getByTestId('submission-card').filter({ hasText: 'Cy Cole' }).locator('summary').click()
  await page
    .getByTestId('submission-card')
    .filter({ hasText: 'Cy Cole' })
    .getByLabel('Saved reply')
    .selectOption({ label: 'Eggs this week' })
  await page
    .getByTestId('submission-card')
    .filter({ hasText: 'Cy Cole' })
    .getByRole('button', { name: 'Send reply' })
    .scrollIntoViewIfNeeded()
  await page
    .getByTestId('submission-card')
    .filter({ hasText: 'Cy Cole' })
    .screenshot({ path: `/tmp/shots/saved-fill-${width}.png` })
  await page.goto(`${server.url}/farm-sales/saved-replies`)
  await page.screenshot({ path: `/tmp/shots/saved-${width}.png`, fullPage: true })
  await context.close()
}
await browser.close()
await server.stop()
await mail.close()
