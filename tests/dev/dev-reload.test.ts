import { spawn } from 'node:child_process'
import { utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { connectLive } from '#tests/support/live-client'
import { freePort, projectRoot, tempDatabasePath } from '#tests/support/server'

const children: number[] = []

afterAll(() => {
  // remix dev starts the app server as its own child: end the whole group.
  for (const pid of children) {
    try {
      process.kill(-pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
})

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  const holds = async () => {
    try {
      return await check()
    } catch {
      return false
    }
  }
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

it('npm run dev rebuilds on a change while the server, and every open WebSocket, stays up', async () => {
  const [port, devPort] = [await freePort(), await freePort()]
  const url = `http://127.0.0.1:${port}`
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_PATH: tempDatabasePath(),
    MIN_FILL_SECONDS: '0',
  }
  // Vitest's NODE_ENV=test would otherwise reach the dev build.
  delete env.NODE_ENV
  const dev = spawn(
    process.execPath,
    [
      join(projectRoot, 'node_modules/@remix-run/dev/dist/cli.js'),
      'dev',
      '--manual',
      '--port',
      String(devPort),
      '-c',
      'node --import tsx server/index.ts',
    ],
    {
      cwd: projectRoot,
      detached: true,
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  children.push(dev.pid!)
  let output = ''
  dev.stdout.on('data', (chunk) => (output += chunk))
  dev.stderr.on('data', (chunk) => (output += chunk))

  await until(async () => (await fetch(`${url}/healthz`)).ok, 'the dev server')
  // The log never holds up the server, so its 'listening' line may reach the pipe after the first answer.
  await until(() => output.includes('"msg":"listening"'), "the server's listening line")
  expect(output).toMatch(/"mode":"development".*"msg":"listening"/)
  const live = await connectLive(`ws://127.0.0.1:${port}/`)
  const readyBefore = output.split('app server ready').length

  const route = join(projectRoot, 'app/routes/_index.tsx')
  const now = new Date()
  utimesSync(route, now, now)
  await until(() => output.split('app server ready').length > readyBefore, 'the rebuild')
  expect(output).toContain('rebuilt')

  expect(live.socket.readyState).toBe(WebSocket.OPEN)
  expect((await fetch(url)).status).toBe(200)
  const response = await fetch(`${url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Dev', email: 'dev@example.com', message: 'Still live after the rebuild?' }),
  })
  expect(response.status).toBe(201)
  expect((await live.next()).data).toEqual((await response.json()).data)
  live.close()
})
