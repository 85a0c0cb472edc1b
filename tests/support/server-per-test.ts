import { afterEach } from 'vitest'
import { startServer, type RunningServer, type ServerOptions } from './server'

/** Starts real servers for the test that asks, and stops every one of them after it. */
export function serverPerTest(): (options?: ServerOptions) => Promise<RunningServer> {
  const running: RunningServer[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.stop()))
  })
  return async (options) => {
    const server = await startServer(options)
    running.push(server)
    return server
  }
}
