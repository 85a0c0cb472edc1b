import AxeBuilder from '@axe-core/playwright'
import { ownerPassword } from '#tests/support/owner'
import { animationsEnded, expect, farmEnv, openHydrated, signInContext, test, type Page } from './fixtures'

const shots = '/work/shots/page-words'

const ownersSite = test.extend({
  serverEnv: { OWNER_PASSWORD: ownerPassword, FARM_TIME_ZONE: 'Europe/London' },
  context: async ({ context, server }, use) => {
    await signInContext(context, server)
    await use(context)
  },
})

async function open(page: Page, path: string, javaScript: boolean) {
  if (javaScript) await openHydrated(page, path)
  else await page.goto(path)
}

/** What axe finds wrong on the page as it stands (with JavaScript on: axe runs in the page). */
async function axeViolations(page: Page) {
  await animationsEnded(page)
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`)
}

/** Fills the editor as an owner would: new words, a story with a link, Saturday's hours, a day off, where the farm is. */
async function writeThePage(page: Page, welcome: string) {
  await page.getByLabel('Welcome line').fill(welcome)
  await page.getByLabel('Intro').fill('Eggs, honey and apples from the hill, sold at the gate.')
  await page
    .getByLabel('Story', { exact: true })
    .fill(
      'My grandmother planted the orchard in 1961.\n\nFind us at [the Saturday market](https://market.example/stall).',
    )
  await page.getByLabel('Saturday opens').fill('09:00')
  await page.getByLabel('Saturday closes').fill('13:00')
  const firstDay = page.getByRole('listitem', { name: 'Day that differs 1' })
  await firstDay.getByLabel('First day').fill('2099-12-24')
  await firstDay.getByLabel('Last day').fill('2099-12-26')
  await firstDay.getByLabel('Note').fill('Christmas')
  await page.getByLabel('Address').fill('Bramble Hill Farm\nLong Lane\nHaytown HT1 2AB')
  await page.getByLabel('Directions in words').fill('The second gate after the church.')
  await page.getByLabel('Phone').fill('+44 1234 567 890')
}

for (const javaScript of [true, false]) {
  for (const width of [1280, 375]) {
    ownersSite.describe(`with JavaScript ${javaScript ? 'on' : 'off'} at ${width} px`, () => {
      ownersSite.use({ javaScriptEnabled: javaScript, viewport: { width, height: 900 } })

      ownersSite(
        'the owner writes the page, previews it, publishes it and restores the one before',
        async ({ page }) => {
          // Four pages, two versions, a restore and axe on three pages: longer than a page's test.
          ownersSite.slow()
          const tag = `${javaScript ? 'js' : 'nojs'}-${width}`
          await open(page, '/farm-sales', javaScript)
          if (width === 1280) await page.getByRole('link', { name: 'The farm’s page' }).click()
          else await page.goto('/farm-sales/page')
          await expect(page.getByRole('heading', { level: 1, name: 'The farm’s page' })).toBeVisible()
          await expect(page.getByTestId('page-versions')).toContainText(
            'Visitors see the page as the site first came: nothing is published yet.',
          )
          await expect(page.getByLabel('Welcome line')).toHaveValue('Welcome to')
          await writeThePage(page, 'Good morning from')
          await page.screenshot({ path: `${shots}/editor-${tag}.png`, fullPage: true })
          if (javaScript) expect(await axeViolations(page)).toEqual([])
          await page.getByRole('button', { name: 'Save and preview' }).click()

          await expect(page).toHaveURL(/\/farm-sales\/page\/preview$/)
          await expect(
            page.getByText('Preview of your draft: visitors do not see it until you publish it.'),
          ).toBeVisible()
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Good morning from ${farmEnv.FARM_NAME}`)
          await expect(page.getByRole('link', { name: 'the Saturday market' })).toHaveAttribute(
            'href',
            'https://market.example/stall',
          )
          await page.screenshot({ path: `${shots}/preview-${tag}.png`, fullPage: true })
          if (javaScript) expect(await axeViolations(page)).toEqual([])

          const visitors = await page
            .context()
            .browser()!
            .newContext({ viewport: { width, height: 900 }, javaScriptEnabled: javaScript })
          const visitor = await visitors.newPage()
          // The page the browser takes over from the server's must say nothing went wrong.
          const problems: string[] = []
          visitor.on('console', (message) => {
            if (message.type() === 'error' || /did not match|hydrat/i.test(message.text()))
              problems.push(message.text())
          })
          visitor.on('pageerror', (error) => problems.push(error.message))
          await visitor.goto(page.url().replace('/farm-sales/page/preview', '/'))
          await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(`Welcome to ${farmEnv.FARM_NAME}`)

          await page.getByRole('button', { name: 'Publish this draft' }).click()
          await expect(page.getByRole('status')).toHaveText('Published: visitors see the page as you wrote it.')
          await visitor.reload()
          await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(`Good morning from ${farmEnv.FARM_NAME}`)
          await expect(visitor.getByText('Eggs, honey and apples from the hill, sold at the gate.')).toBeVisible()
          await expect(visitor.getByTestId('farm-story').locator('p')).toHaveText([
            'My grandmother planted the orchard in 1961.',
            'Find us at the Saturday market.',
          ])
          await expect(visitor.getByRole('row', { name: 'Saturday 9:00–13:00' })).toBeVisible()
          await expect(visitor.getByRole('row', { name: 'Monday Closed' })).toBeVisible()
          await expect(visitor.getByText('Closed 24–26 December: Christmas')).toBeVisible()
          await expect(visitor.getByTestId('opening-line')).toHaveText(
            /^Opens (today|tomorrow|Saturday( \d+ \w+)?) at 9:00$/,
          )
          await expect(visitor.getByRole('link', { name: 'Open in a map' })).toHaveAttribute(
            'href',
            'https://www.openstreetmap.org/search?query=Bramble%20Hill%20Farm%2C%20Long%20Lane%2C%20Haytown%20HT1%202AB',
          )
          await expect(visitor.getByRole('link', { name: '+44 1234 567 890' })).toHaveAttribute(
            'href',
            'tel:+441234567890',
          )
          await visitor.screenshot({ path: `${shots}/home-${tag}.png`, fullPage: true })
          if (javaScript) expect(await axeViolations(visitor)).toEqual([])

          // A second version, published straight from the editor; then the first restored in one step.
          await page.getByLabel('Welcome line').fill('Hello from')
          // The status still says the first publish's words: wait for this publish's own answer.
          const published = page.waitForResponse(
            (answer) => answer.request().method() === 'POST' && new URL(answer.url()).pathname === '/farm-sales/page',
          )
          await page.getByRole('button', { name: 'Publish', exact: true }).click()
          await published
          await expect(page.getByRole('status')).toHaveText('Published: visitors see the page as you wrote it.')
          await visitor.reload()
          await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(`Hello from ${farmEnv.FARM_NAME}`)
          await page.getByRole('button', { name: /^Restore the version published before/ }).click()
          await expect(page.getByRole('status')).toHaveText(
            'Restored: visitors see the page as it was published before. Restore again to undo.',
          )
          await expect(page.getByLabel('Welcome line')).toHaveValue('Good morning from')
          await visitor.reload()
          await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(`Good morning from ${farmEnv.FARM_NAME}`)
          expect(problems).toEqual([])
          await visitors.close()

          await open(page, '/farm-sales/activity', javaScript)
          await expect(
            page.getByTestId('activity').filter({ hasText: 'farm’s page' }).locator('p:first-child'),
          ).toHaveText([
            'Restored the farm’s page as it was published before',
            'Published the farm’s page',
            'Published the farm’s page',
            'Saved a draft of the farm’s page',
          ])
        },
      )

      ownersSite('a story with a javascript: link is refused, and what was typed stays', async ({ page }) => {
        await open(page, '/farm-sales/page', javaScript)
        await page.getByLabel('Story', { exact: true }).fill('[Win a prize](javascript:alert%28document.cookie%29)')
        await page.getByLabel('Monday opens').fill('18:00')
        await page.getByLabel('Monday closes').fill('09:00')
        await page.getByRole('button', { name: 'Publish', exact: true }).click()
        await expect(page.getByRole('alert').first()).toHaveText('Not saved: 2 fields need a change, marked below.')
        await expect(page.locator('#story-problem')).toHaveText(
          'The link “Win a prize” goes nowhere a visitor can safely follow: write an address starting with https://, or mailto: or tel:.',
        )
        await expect(page.getByText('Closing comes after opening, the same day.')).toBeVisible()
        await expect(page.getByLabel('Story', { exact: true })).toHaveValue(
          '[Win a prize](javascript:alert%28document.cookie%29)',
        )
        await expect(page.getByTestId('page-versions')).toContainText('nothing is published yet')
        await page.screenshot({
          path: `${shots}/editor-refused-${javaScript ? 'js' : 'nojs'}-${width}.png`,
          fullPage: true,
        })
      })
    })
  }
}

ownersSite.describe('the opening line, on a test clock, across the change to summer time', () => {
  ownersSite(
    'is right on the farm’s clock before and after the clocks go forward (Europe/London)',
    async ({ page }) => {
      await openHydrated(page, '/farm-sales/page')
      for (const day of ['Saturday', 'Sunday']) {
        await page.getByLabel(`${day} opens`).fill('09:00')
        await page.getByLabel(`${day} closes`).fill('17:00')
      }
      await page.getByRole('button', { name: 'Publish', exact: true }).click()
      await expect(page.getByRole('status')).toHaveText('Published: visitors see the page as you wrote it.')

      // Sunday 28 March 2027: at 01:00 UTC London's clocks go from 01:00 to 02:00.
      const moments = [
        ['2027-03-27T20:00:00Z', 'Opens tomorrow at 9:00'],
        ['2027-03-28T07:59:00Z', 'Opens today at 9:00'],
        ['2027-03-28T08:00:00Z', 'Open now until 17:00'],
        ['2027-03-28T16:00:00Z', 'Opens Saturday at 9:00'],
      ] as const
      for (const [moment, line] of moments) {
        await page.clock.setFixedTime(new Date(moment))
        await openHydrated(page, '/')
        await expect(page.getByTestId('opening-line')).toHaveText(line)
      }
    },
  )
})

test.describe('a fresh site', () => {
  test.use({ javaScriptEnabled: false })

  test('says exactly the spec’s texts, and nothing of a story, hours or an address', async ({ page }) => {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto('/')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome to ${farmEnv.FARM_NAME}`)
      await expect(
        page.getByText('Fill out the form to stay updated with our latest products and receive exclusive offers.'),
      ).toBeVisible()
      await expect(page.getByRole('heading', { level: 2 })).toHaveText([
        `${farmEnv.FARM_PRODUCT} Updates`,
        'Exclusive Offers',
        'Contact Us',
      ])
      await expect(page.getByRole('region', { name: 'About the farm' })).toHaveCount(0)
      await expect(page.locator('link[rel="canonical"]')).toHaveCount(0)
      await page.screenshot({ path: `${shots}/home-fresh-${width}.png`, fullPage: true })
    }
  })
})
