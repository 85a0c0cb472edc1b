import { defineConfig, devices } from '@playwright/test'
import { chromiumLaunch } from './tests/support/chromium'

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/support/playwright-global-setup.ts',
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunch,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
})
