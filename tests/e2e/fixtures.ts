import { test as base, expect, type BrowserContext, type Page } from '@playwright/test'
import type { Submission } from '#app/leads/lead'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { freePort, startServer, type RunningServer } from '#tests/support/server'

export const farmEnv = { FARM_NAME: 'Bramble Hill Farm', FARM_PRODUCT: 'Orchard' }

/** Every test gets its own real server and its own fresh SQLite file; `serverEnv` adds settings. */
export const test = base.extend<{ server: RunningServer; serverEnv: Record<string, string> }>({
  serverEnv: [{}, { option: true }],
  server: async ({ serverEnv }, use) => {
    const server = await startServer({ env: { ...farmEnv, ...serverEnv } })
    await use(server)
    await server.stop()
  },
  baseURL: async ({ server }, use) => use(server.url),
})

/** A site with UPDATES on, mailing through a real SMTP server on loopback (OWNER_PASSWORD is `ownerPassword`). */
export const updatesSiteTest = base.extend<{ mail: MailServer; server: RunningServer }>({
  // Playwright reads a fixture's needs from its first parameter's pattern: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  mail: async ({}, use) => {
    const mail = await startMailServer()
    await use(mail)
    await mail.close()
  },
  server: async ({ mail }, use) => {
    const port = await freePort()
    const server = await startServer({
      port,
      env: {
        ...farmEnv,
        OWNER_PASSWORD: ownerPassword,
        SMTP_URL: mail.url,
        NOTIFY_EMAIL: 'owner@bramble.example',
        UPDATES: 'true',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
    })
    await use(server)
    await server.stop()
  },
  baseURL: async ({ server }, use) => use(server.url),
})

/** Signs the owner in through the real sign-in form and gives the browser context that session. */
export async function signInContext(context: BrowserContext, server: RunningServer) {
  const [name, value] = (await signInAsOwner(server.url, ownerPassword)).split('=') as [string, string]
  await context.addCookies([{ name, value, url: server.url }])
}

/** Opens a page and waits until React has hydrated it, so clicks run the app's handlers. */
export async function openHydrated(page: Page, path: string) {
  const response = await page.goto(path)
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
  return response
}

/**
 * Waits until every animation and transition on the page has ended (the cards' entrance, the
 * header's fade), so colours are measured as people see them once it settles. A spinner that
 * turns for ever is not waited for; one that starts while others end is.
 */
export async function animationsEnded(page: Page) {
  await page.evaluate(async () => {
    for (;;) {
      // Two frames: a transition a render just asked for has started by then.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
      const running = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' && animation.effect?.getComputedTiming().iterations !== Infinity,
        )
      if (running.length === 0) return
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)))
    }
  })
}

const fieldLabels = { name: 'Name', email: 'Email', message: 'Message' } as const

/** Types into the contact form's fields as a visitor would. */
export async function fillContactForm(page: Page, values: Partial<Record<keyof typeof fieldLabels, string>>) {
  for (const [field, value] of Object.entries(values)) {
    await page.getByLabel(fieldLabels[field as keyof typeof fieldLabels]).fill(value)
  }
}

export async function postSubmission(
  server: RunningServer,
  fields: { name: string; email?: string; message?: string },
) {
  const response = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'guest@example.com', message: 'Do you sell eggs?', ...fields }),
  })
  expect(response.status).toBe(201)
  return (await response.json()).data as Submission
}

export { expect }
export type { Page, WebSocket } from '@playwright/test'
