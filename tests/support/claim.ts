import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { RunningServer } from './server'

/** Runs `npm run claim` for this test site as its README says (the built script), and gives back what it printed. */
export async function runClaim(server: RunningServer, env: Record<string, string> = {}) {
  const ran = await promisify(execFile)(process.execPath, ['build/claim.js'], {
    env: { ...process.env, DATABASE_PATH: server.databasePath, PORT: String(server.port), ...env },
  }).catch((error: { stdout: string; stderr: string; code: number }) => error)
  const link = /http:\/\/\S+\/set-up\/[A-Za-z0-9_-]{43}/.exec(ran.stdout)?.[0] ?? null
  return { link, stdout: ran.stdout, stderr: ran.stderr, failed: 'code' in ran && ran.code !== 0 }
}
