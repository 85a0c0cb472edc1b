import { chromium } from '@playwright/test'
import { chromiumLaunch } from '#tests/support/chromium'
import { furnishHomePage } from '#tests/support/home-page'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { startServer } from '#tests/support/server'
const dir = process.argv[2]!
const server = await startServer({ env: { OWNER_PASSWORD: ownerPassword, FARM_TIME_ZONE: 'Europe/London' } })
const cookie = await signInAsOwner(server.url, ownerPassword)
await furnishHomePage(server.url, cookie, { photos: 3, products: 12 })
const browser = await chromium.launch(chromiumLaunch)
for (const width of [1280, 375]) {
  const page = await browser.newPage({ viewport: { width, height: 900 } })
  await page.goto(server.url)
  await page.evaluate(async () => {
    for (const img of document.querySelectorAll('img')) img.loading = 'eager'
    await new Promise((r) => setTimeout(r, 800))
  })
  await page.screenshot({ path: `${dir}/home-${width}.png`, fullPage: true })
}
await browser.close()
await server.stop()
