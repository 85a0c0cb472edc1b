import { test as base } from '@playwright/test'
import { startServer, type RunningServer } from '../support/server'

export const farmEnv = { FARM_NAME: 'Bramble Hill Farm', FARM_PRODUCT: 'Orchard' }

/** Every test gets its own real server and its own fresh SQLite file. */
export const test = base.extend<{ server: RunningServer }>({
  // eslint-disable-next-line no-empty-pattern
  server: async ({}, use) => {
    const server = await startServer({ env: farmEnv })
    await use(server)
    await server.stop()
  },
  baseURL: async ({ server }, use) => use(server.url),
})

export { expect } from '@playwright/test'
