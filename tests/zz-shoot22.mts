import { chromium } from '@playwright/test'
import { chromiumLaunch } from '#tests/support/chromium'
import { signInAsOwner } from '#tests/support/owner'
import { seedSubmissions } from '#tests/support/seed'
import { startServer, tempDatabasePath } from '#tests/support/server'

const password = 'orchard gate at noon'
const databasePath = tempDatabasePath()
const first = await startServer({ databasePath, env: { OWNER_PASSWORD: password } })
await first.stop()
seedSubmissions(databasePath, 30)
const server = await startServer({ databasePath, env: { OWNER_PASSWORD: password, NOTIFY_EMAIL: 'o@farm.example', FARM_NAME: 'Bramble Hill Farm' } })
const browser = await chromium.launch(chromiumLaunch)
const [name, value] = (await signInAsOwner(server.url, password)).split('=') as [string, string]
for (const [width, height] of [[375, 667], [1280, 900]] as const) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 })
  await context.grantPermissions(['notifications'], { origin: server.url })
  await context.addCookies([{ name, value, url: server.url }])
  const page = await context.newPage()
  await page.goto(`${server.url}/farm-sales`)
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
  await page.getByRole('button', { name: 'Notify me on this phone' }).waitFor()
  await page.waitForTimeout(1500)
  await page.screenshot({ path: `/tmp/shots/22/inbox-${width}.png` })
  if (width === 375) {
    await page.getByText('Search and filter').click()
    await page.waitForTimeout(300)
    await page.screenshot({ path: `/tmp/shots/22/inbox-open-${width}.png` })
    await page.goto(`${server.url}/farm-sales?q=eggs&urgency=high`)
    await page.waitForTimeout(1500)
    await page.screenshot({ path: `/tmp/shots/22/inbox-filtered-${width}.png` })
    await context.setOffline(true)
    await page.goto(`${server.url}/farm-sales`).catch(() => undefined)
    await page.waitForTimeout(500)
    await page.screenshot({ path: `/tmp/shots/22/offline-${width}.png` })
  }
  await context.close()
}
await browser.close()
await server.stop()
