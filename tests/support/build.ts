import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { projectRoot } from './server'

/**
 * Tests run against the real production build. `npm test` builds once and
 * sets FARM_BUILT=1; a suite run on its own builds first.
 */
export function ensureBuild() {
  if (process.env.FARM_BUILT === '1' && existsSync(join(projectRoot, 'build/server.js'))) return
  execFileSync('npm', ['run', '--silent', 'build'], {
    cwd: projectRoot,
    stdio: 'inherit',
    // Vitest sets NODE_ENV=test, which makes Remix compile the development JSX
    // runtime; the production server then fails every page with "jsxDEV is not a function".
    env: { ...process.env, NODE_ENV: 'production' },
  })
  process.env.FARM_BUILT = '1'
}
