import { afterAll, beforeAll } from 'vitest'
import { connectLive, type LiveClient } from './live-client'
import { startServer, type RunningServer } from './server'

/** One real server and one live client shared by every test in a file. */
export function sharedServerWithLiveClient(): { server: RunningServer; live: LiveClient } {
  const shared = {} as { server: RunningServer; live: LiveClient }
  beforeAll(async () => {
    shared.server = await startServer()
    shared.live = await connectLive(shared.server.wsUrl)
  })
  afterAll(async () => {
    shared.live?.close()
    await shared.server?.stop()
  })
  return shared
}
