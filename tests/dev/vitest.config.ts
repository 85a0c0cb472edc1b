import { defineConfig } from 'vitest/config'
import { importAliases } from '../../vitest.config'

// The development loop rebuilds into build/, so it runs on its own, after the
// suites that serve the production build; `npm test` rebuilds for production after it.
export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  resolve: { alias: importAliases },
  test: {
    include: ['tests/dev/**/*.test.ts'],
    testTimeout: 90_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest-dev.json' },
  },
})
