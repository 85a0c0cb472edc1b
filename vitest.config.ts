import { defineConfig } from 'vitest/config'

/** `#app/…`, `#server/…` and `#tests/…`, as tsconfig.json's paths and package.json's imports say. */
export const importAliases = Object.fromEntries(
  ['app', 'server', 'tests'].map((folder) => [`#${folder}`, new URL(`./${folder}`, import.meta.url).pathname]),
)

export default defineConfig({
  resolve: { alias: importAliases },
  test: {
    include: [
      'app/**/*.test.{ts,tsx}',
      'server/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'tests/security/**/*.test.ts',
    ],
    globalSetup: ['tests/support/vitest-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
})
