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
    // Most files wait on a server of their own, not on the CPU: three at once took the suite from
    // 295 s to 129 s on a 2-core machine (four: 126 s), every file passing.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
})
