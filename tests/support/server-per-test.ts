import { afterAll, afterEach } from 'vitest'
import { startServer, type RunningServer, type ServerOptions } from './server'

/** Starts a real server, stopped after its test (serverPerTest) or its file or block (serverPerFile). */
export type StartServer = (options?: ServerOptions) => Promise<RunningServer>

/** Starts servers, each stopped by the hook given: after each test, or after the last. */
function stoppedBy(hook: typeof afterEach | typeof afterAll, stopWith: NodeJS.Signals): StartServer {
  const running: RunningServer[] = []
  hook(async () => {
    await Promise.all(running.splice(0).map((server) => server.stop(stopWith)))
  })
  return async (options) => {
    const server = await startServer(options)
    running.push(server)
    return server
  }
}

/**
 * Starts real servers for the test that asks, and stops every one of them after it: with SIGTERM,
 * or the signal given (SIGKILL where how a server stops is not what the file tests). A server the
 * test already stopped itself is left as it is.
 */
export const serverPerTest = (stopWith: NodeJS.Signals = 'SIGTERM') => stoppedBy(afterEach, stopWith)

/**
 * Starts real servers shared by the tests of the file, or of the describe block that calls it
 * (started in its beforeAll), and stops them after its last test: with SIGTERM, or the signal given.
 */
export const serverPerFile = (stopWith: NodeJS.Signals = 'SIGTERM') => stoppedBy(afterAll, stopWith)
