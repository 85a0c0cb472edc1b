import { storedRows } from '#tests/support/database'
import { keptCount } from '#tests/support/home-page'
import { ownerPassword } from '#tests/support/owner'
import type { RunningServer } from '#tests/support/server'
import { expect, fillContactForm, openHydrated, test, type Page } from './fixtures'

// A claimed site, so a browser on 127.0.0.1 is a visitor and gets the kept home page (decision 043).
test.use({ serverEnv: { OWNER_PASSWORD: ownerPassword } })

const visitor = { name: 'Dot Pruitt', email: 'dot@example.com', message: 'Do you have eggs on Saturday?' }

/** The page rendered once, then kept: the next visit is answered from memory. */
async function keptHomePage(page: Page, server: RunningServer) {
  await page.goto('/')
  await expect.poll(() => keptCount(server)).toBe(1)
}

for (const width of [1280, 375]) {
  test(`a kept home page runs its scripts under its own nonce and sends the form, at ${width} px`, async ({
    page,
    server,
  }) => {
    await page.setViewportSize({ width, height: 800 })
    const errors: string[] = []
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())))
    await keptHomePage(page, server)
    await openHydrated(page, '/')
    expect(keptCount(server)).toBe(1)
    await fillContactForm(page, visitor)
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Thank you! Your message has reached the farm.')).toBeVisible()
    expect(storedRows(server.databasePath)).toMatchObject([visitor])
    // A refused script (a nonce not the policy's) would have said so here.
    expect(errors).toEqual([])
  })
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  for (const width of [1280, 375]) {
    test(`a kept home page sends the form and thanks the visitor, at ${width} px`, async ({ page, server }) => {
      await page.setViewportSize({ width, height: 800 })
      await keptHomePage(page, server)
      await page.goto('/')
      expect(keptCount(server)).toBe(1)
      await fillContactForm(page, visitor)
      await page.getByRole('button', { name: 'Submit' }).click()
      await expect(page).toHaveURL(`${server.url}/?sent#contact`)
      await expect(page.getByRole('status')).toHaveText('Thank you! Your message has reached the farm.')
      expect(storedRows(server.databasePath)).toMatchObject([visitor])
    })
  }
})
