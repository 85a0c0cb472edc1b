import { defineConfig, devices } from '@playwright/test'
import { chromiumLaunch } from './tests/support/chromium'

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/support/playwright-global-setup.ts',
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  // A whole visit (sign-in, password checks, several pages) runs 10–15 s alone and has met 30 s
  // on a CI machine busy with the other worker; 60 s keeps a slow machine from failing a right page.
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunch,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
})
