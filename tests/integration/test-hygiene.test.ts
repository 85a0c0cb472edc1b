// The tests' own hygiene, read from their files: servers are started through serverPerTest or
// serverPerFile (tests/support/server-per-test.ts), never with startServer and each file's own
// hooks to stop them; the test sites' owner password is written once (tests/support/owner.ts);
// and app/ holds no module only tests use (test data lives in tests/fixtures/).
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ownerPassword } from '#tests/support/owner'
import { projectRoot } from '#tests/support/server'

const skipped = new Set(['node_modules', 'build', '.cache', 'test-results', 'playwright-report', 'bare-remix'])

/** Every source file under these folders, as paths from the project's root. */
function sourcesUnder(...folders: string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(join(projectRoot, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) return skipped.has(entry.name) ? [] : sourcesUnder(path)
      return /\.(ts|tsx|js|mjs|cjs|sh)$/.test(entry.name) ? [path] : []
    }),
  )
}

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8')
const sources = sourcesUnder('app', 'server', 'tests', 'bench', 'scripts')
/** A test, or code only tests and benches run. */
const testSide = (path: string) =>
  path.startsWith('tests/') || path.startsWith('bench/') || /\.(test|spec)\.tsx?$/.test(path)

const withoutComments = (text: string) =>
  text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
    .join('\n')

describe('the tests themselves', () => {
  it('start their servers through serverPerTest or serverPerFile, which stop them, never with startServer', () => {
    // Playwright's tests (*.spec.ts) start theirs in fixtures, which stop them too.
    const handRolled = sources
      .filter((path) => /\.test\.tsx?$/.test(path) && !path.startsWith('tests/support/'))
      .filter((path) => /\bstartServer\(/.test(withoutComments(read(path))))
    expect(handRolled).toEqual([])
  })

  it('write the test sites’ owner password once, in tests/support/owner.ts', () => {
    const written = sources
      .map((path) => [path, read(path).split(ownerPassword).length - 1] as const)
      .filter(([, times]) => times > 0)
    expect(written).toEqual([['tests/support/owner.ts', 1]])
  })

  it('leave in app/ no module that only tests and benches use', () => {
    const importers = new Map<string, string[]>()
    for (const path of sources) {
      const text = read(path)
      const named = text.matchAll(
        /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\s*\(?\s*['"]([^'"]+)['"]|new URL\(\s*['"]([^'"]+)['"]/g,
      )
      for (const [, from, bare, url] of named) {
        const specifier = (from ?? bare ?? url)!
        const alias = /^#(app|server|tests)\/(.*)$/.exec(specifier)
        const base = alias
          ? join(alias[1]!, alias[2]!)
          : specifier.startsWith('.')
            ? relative(projectRoot, resolve(projectRoot, dirname(path), specifier))
            : null
        if (!base) continue
        const target = ['', '.ts', '.tsx', '.mjs', '.js']
          .map((end) => base + end)
          .find((file) => sources.includes(file))
        if (target) importers.set(target, [...(importers.get(target) ?? []), path])
      }
    }
    const productionTexts = sources.filter((path) => !testSide(path)).map(read)
    const onlyTests = [...importers]
      .filter(([module, by]) => module.startsWith('app/') && !testSide(module) && by.every(testSide))
      // Remix loads the routes, the root and the entries by their place, and the server names
      // files it runs (a worker) by their path.
      .filter(([module]) => !/^app\/(routes\/|root\.tsx$|entry\.)/.test(module))
      .filter(([module]) => !productionTexts.some((text) => text.includes(module.slice('app/'.length))))
      .map(([module]) => module)
    expect(onlyTests).toEqual([])
  })
})
