// The farm's photos as the owner adds them and a visitor sees them, on a wide screen and a phone,
// with JavaScript on and off.
import AxeBuilder from '@axe-core/playwright'
import { photoWords } from '#app/photos/photo-words'
import { ownerPassword } from '#tests/support/owner'
import { jpegWithGps, svgDrawing } from '#tests/support/photos'
import { expect, signInContext, test, type Page } from './fixtures'

test.use({ serverEnv: { OWNER_PASSWORD: ownerPassword } })

async function addPhoto(page: Page, file: { name: string; mimeType: string; buffer: Buffer }, alt: string) {
  const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add a photo' }) })
  await form.getByLabel('Photo', { exact: true }).setInputFiles(file)
  await form.getByLabel('What it shows, for whoever cannot see it').fill(alt)
  await form.getByRole('button', { name: 'Add the photo' }).click()
}

/** axe runs in the page's own JavaScript: without it, there is nothing to run it in. */
async function expectAxeClean(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
  ).toEqual([])
}

for (const javaScriptEnabled of [true, false]) {
  for (const width of [1280, 375]) {
    test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}, ${width} px wide`, () => {
      test.use({ javaScriptEnabled, viewport: { width, height: 900 } })

      test('the owner adds, orders and removes photos, a refusal says why, and the home page shows them lazily in their order', async ({
        page,
        context,
        server,
      }) => {
        // Each photo is made in three sizes and formats while the other tests run too.
        test.setTimeout(120_000)
        await signInContext(context, server)
        await page.goto('/farm-sales/page/photos')
        if (javaScriptEnabled) await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('The farm’s photos')
        await expect(page.getByText('0 of 12 photos')).toBeVisible()

        await addPhoto(
          page,
          { name: 'hens.jpg', mimeType: 'image/jpeg', buffer: await jpegWithGps(2) },
          'Hens in the orchard',
        )
        // Made in three sizes and formats first: a few seconds on a busy machine.
        await expect(page.getByRole('status')).toHaveText('The photo is on the home page.', { timeout: 60_000 })
        await addPhoto(page, { name: 'logo.jpg', mimeType: 'image/jpeg', buffer: svgDrawing }, 'Our logo')
        await expect(page.getByRole('alert')).toHaveText(`Not added: ${photoWords.svg}`)
        // What the owner wrote stays, to send again with another file.
        await expect(page.getByLabel('What it shows, for whoever cannot see it')).toHaveValue('Our logo')
        await addPhoto(page, { name: 'barn.jpg', mimeType: 'image/jpeg', buffer: await jpegWithGps(3) }, 'The red barn')
        await expect(page.getByText('2 of 12 photos')).toBeVisible({ timeout: 60_000 })
        await expect(page.getByTestId('photo').getByRole('img')).toHaveCount(2)

        await page
          .getByTestId('photo')
          .filter({ has: page.getByAltText('The red barn') })
          .getByRole('button', { name: 'Move earlier' })
          .click()
        await expect(page.getByRole('status')).toHaveText('The photos are in their new order.')
        await expect(page.getByTestId('photo').first().getByRole('img')).toHaveAttribute('alt', 'The red barn')
        await expectAxeClean(page, javaScriptEnabled)

        await page.goto('/')
        const section = page.getByRole('region', { name: 'On the farm' })
        const images = section.getByRole('img')
        await expect(images).toHaveCount(2)
        expect(await images.evaluateAll((all) => all.map((img) => img.getAttribute('alt')))).toEqual([
          'The red barn',
          'Hens in the orchard',
        ])
        await expect(images.first()).toHaveAttribute('loading', 'lazy')
        await expect(images.first()).toHaveAttribute('width', '1200')
        await expect(images.first()).toHaveAttribute('height', '900')
        await section.scrollIntoViewIfNeeded()
        // Loaded once near the screen, as AVIF (Chromium reads it), at a width the layout asks for.
        await expect
          .poll(() => images.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
          .toBeGreaterThan(0)
        const chosen = await images.first().evaluate((img: HTMLImageElement) => img.currentSrc)
        expect(chosen).toMatch(/\/photos\/[A-Za-z0-9_-]{22}\.avif$/)
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }))
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth)

        await page.goto('/farm-sales/page/photos')
        await page
          .getByTestId('photo')
          .filter({ has: page.getByAltText('The red barn') })
          .getByRole('button', { name: 'Remove' })
          .click()
        await expect(page.getByRole('status')).toHaveText('The photo is no longer on the home page.')
        await page.goto('/')
        expect(
          await page
            .getByRole('region', { name: 'On the farm' })
            .getByRole('img')
            .evaluateAll((all) => all.map((img) => img.getAttribute('alt'))),
        ).toEqual(['Hens in the orchard'])
      })
    })
  }
}

test.describe('with JavaScript on', () => {
  test('a photo over 15 MB is refused in the browser, before it is sent', async ({ page, context, server }) => {
    await signInContext(context, server)
    await page.goto('/farm-sales/page/photos')
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url())
    })
    const big = Buffer.alloc(16 * 1024 * 1024, 0xab)
    await addPhoto(page, { name: 'huge.jpg', mimeType: 'image/jpeg', buffer: big }, 'The whole valley')
    await expect(page.getByRole('alert')).toHaveText(`Not added: ${photoWords.tooLarge}`)
    expect(posts).toEqual([])
  })
})
