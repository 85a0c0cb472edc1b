import { afterAll, beforeAll } from 'vitest'
import { connectLive, type LiveClient } from './live-client'
import type { RunningServer } from './server'
import { serverPerFile } from './server-per-test'

/** One real server and one live client shared by every test in a file. */
export function sharedServerWithLiveClient(): { server: RunningServer; live: LiveClient } {
  const shared = {} as { server: RunningServer; live: LiveClient }
  const serve = serverPerFile()
  beforeAll(async () => {
    shared.server = await serve()
    shared.live = await connectLive(shared.server.wsUrl)
  })
  // Registered after the server's hook, so it runs before it: the live link closes first.
  afterAll(() => shared.live?.close())
  return shared
}
