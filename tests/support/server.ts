import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

export function tempDatabasePath(): string {
  return join(mkdtempSync(join(tmpdir(), 'farm-test-')), 'farm.db')
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

export interface RunningServer {
  url: string
  wsUrl: string
  databasePath: string
  port: number
  child: ChildProcess
  /** Everything the server printed so far, standard output and error interleaved. */
  output(): string
  /** Only what it printed to standard output, and only to standard error. */
  stdout(): string
  stderr(): string
  /** Settles once the process is gone, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Sends the signal and resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export interface ServerOptions {
  databasePath?: string
  /** A fixed port, e.g. to restart on the same address; a free one when left out. */
  port?: number
  env?: Record<string, string>
  /** A command the server is started through, given `node build/server.js` as its last arguments. */
  through?: string[]
}

/** Starts the real production server (`build/server.js`, compiled by `npm run build`) on a free port. */
export async function startServer({
  databasePath = tempDatabasePath(),
  port,
  env = {},
  through = [],
}: ServerOptions = {}): Promise<RunningServer> {
  port ??= await freePort()
  const [command = process.execPath, ...args] = [...through, process.execPath, 'build/server.js']
  const child = spawn(command, args, {
    cwd: projectRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_PATH: databasePath,
      // Tests post faster and more often than people; the tests of these limits set their own.
      MIN_FILL_SECONDS: '0',
      SUBMISSION_RATE_LIMIT: '10000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let printed = ''
  let printedOut = ''
  let printedErr = ''
  child.stdout?.on('data', (chunk) => {
    printed += chunk
    printedOut += chunk
  })
  child.stderr?.on('data', (chunk) => {
    printed += chunk
    printedErr += chunk
  })
  // 'close' rather than 'exit': by then everything the server printed has been read.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  )
  const url = `http://127.0.0.1:${port}`

  const deadline = Date.now() + 30_000
  // Its own line: another test's server that took the port between freePort and this one's listen
  // answers /healthz too (a CI run signed in to it and was refused).
  const saysListening = (line: string) => line.includes(`"url":"${url}"`) && line.includes('"msg":"listening"')
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}:\n${printed}`)
    try {
      // Ready once the offline reader has loaded: a message read before would wait for a later
      // reading (15 s on), which a busy test machine can turn into a missed mail.
      const health = await fetch(`${url}/healthz`)
      const ready = health.ok && ((await health.json()) as { reader?: string }).reader === 'ready'
      if (ready && printedOut.split('\n').some(saysListening)) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`The server did not become healthy:\n${printed}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }

  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}/`,
    databasePath,
    port,
    child,
    output: () => printed,
    stdout: () => printedOut,
    stderr: () => printedErr,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return (await exited).code
    },
  }
}

/** How the site reads its mailbox, as /healthz says it ('watching' once it reads). */
export async function mailboxState(server: RunningServer): Promise<string> {
  return ((await (await fetch(`${server.url}/healthz`)).json()) as { mailbox: { state: string } }).mailbox.state
}
