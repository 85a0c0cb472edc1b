import { expect, openHydrated, postSubmission, test, type Page } from './fixtures'

/** Tells the page its tab went to the background, or came back, as the browser would. */
async function setVisibility(page: Page, state: 'hidden' | 'visible') {
  await page.evaluate((visibility) => {
    Object.defineProperty(document, 'visibilityState', { value: visibility, configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
  }, state)
}

const iconHref = (page: Page) => page.locator('link[rel="icon"]').getAttribute('href')

test('in a background tab each new lead adds to the title’s count and dots the icon; both clear when seen', async ({
  page,
  server,
}) => {
  const opened = page.waitForEvent('websocket')
  await openHydrated(page, '/farm-sales')
  await opened
  await expect(page).toHaveTitle('Farm Sales Data')
  await setVisibility(page, 'hidden')
  await postSubmission(server, { name: 'First Lead' })
  await expect(page).toHaveTitle('(1) Farm Sales Data')
  await postSubmission(server, { name: 'Second Lead' })
  await expect(page).toHaveTitle('(2) Farm Sales Data')
  expect(await iconHref(page)).toMatch(/^data:image\/svg\+xml,/)

  await setVisibility(page, 'visible')
  await expect(page).toHaveTitle('Farm Sales Data')
  expect(await iconHref(page)).toBe('/favicon.svg')
  await postSubmission(server, { name: 'Seen Lead' })
  await expect(page.getByTestId('submission-card').first()).toContainText('Seen Lead')
  await expect(page).toHaveTitle('Farm Sales Data')
})

test('Notify me asks for permission only when clicked, then shows a notification per lead while hidden, never for spam', async ({
  page,
  server,
}) => {
  await page.addInitScript(() => {
    const shown: Array<{ title: string; body?: string }> = []
    const asked: string[] = []
    let permission: NotificationPermission = 'default'
    class RecordingNotification {
      static get permission() {
        return permission
      }
      static async requestPermission() {
        asked.push('asked')
        permission = 'granted'
        return permission
      }
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, body: options?.body })
      }
    }
    Object.assign(window, { Notification: RecordingNotification, shownNotifications: shown, askedPermission: asked })
  })
  const opened = page.waitForEvent('websocket')
  await openHydrated(page, '/farm-sales')
  await opened
  const recorded = () =>
    page.evaluate(() => {
      const seen = window as unknown as { shownNotifications: unknown[]; askedPermission: unknown[] }
      return { shown: seen.shownNotifications, asked: seen.askedPermission.length }
    })
  expect((await recorded()).asked).toBe(0)
  await page.getByRole('button', { name: 'Notify me' }).click()
  await expect(page.getByText('Notifications on for new leads')).toBeVisible()
  expect((await recorded()).asked).toBe(1)

  await setVisibility(page, 'hidden')
  await postSubmission(server, {
    name: 'Nora Lead',
    message: 'We would like two dozen eggs and a jar of honey every Friday for the whole summer please',
  })
  const spam = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Bot', email: 'bot@example.com', message: 'Buy now', website: 'x' }),
  })
  expect(spam.status).toBe(202)
  await expect(page).toHaveTitle('(1) Farm Sales Data')
  expect((await recorded()).shown).toEqual([
    { title: 'New lead from Nora Lead', body: 'We would like two dozen eggs and a jar of honey every…' },
  ])
})
