import { afterEach } from 'vitest'
import { startServer, type RunningServer, type ServerOptions } from './server'

/** Starts a real server for the test that calls it; it is stopped after that test. */
export type StartServer = (options?: ServerOptions) => Promise<RunningServer>

/**
 * Starts real servers for the test that asks, and stops every one of them after it: with SIGTERM,
 * or the signal given (SIGKILL where how a server stops is not what the file tests). A server the
 * test already stopped itself is left as it is.
 */
export function serverPerTest(stopWith: NodeJS.Signals = 'SIGTERM'): StartServer {
  const running: RunningServer[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.stop(stopWith)))
  })
  return async (options) => {
    const server = await startServer(options)
    running.push(server)
    return server
  }
}
