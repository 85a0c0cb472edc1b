// One address cannot take every live socket: past its own cap it is refused while others are
// still admitted, and the cap reads the client address behind TRUST_PROXY like Express does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { defaults } from '#server/config'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

function upgrade(url: string, forwardedFor: string): Promise<{ status: number; socket?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { 'X-Forwarded-For': forwardedFor } })
    socket.once('open', () => resolve({ status: 101, socket }))
    socket.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }))
    socket.once('error', reject)
  })
}

describe('live sockets per address, at the shipped default', () => {
  let server: RunningServer
  const open: WebSocket[] = []
  // Registered before the sockets' hook, so it runs after it: the sockets go first.
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { TRUST_PROXY: '1' } })
  })
  afterAll(() => {
    for (const socket of open) socket.terminate()
  })

  it('refuses the address past its cap with 429 and still admits another address', async () => {
    const cap = Number(defaults.LIVE_MAX_SOCKETS_PER_ADDRESS)
    for (let i = 0; i < cap; i++) {
      const { status, socket } = await upgrade(server.wsUrl, '203.0.113.7')
      expect(status).toBe(101)
      open.push(socket!)
    }
    expect((await upgrade(server.wsUrl, '203.0.113.7')).status).toBe(429)
    // Another spelling of the same address, and another address in the same IPv6 /64, count alike.
    expect((await upgrade(server.wsUrl, '::ffff:203.0.113.7')).status).toBe(429)
    const other = await upgrade(server.wsUrl, '198.51.100.20')
    expect(other.status).toBe(101)
    open.push(other.socket!)
  })
})

describe('without TRUST_PROXY', () => {
  let server: RunningServer
  const open: WebSocket[] = []
  // Registered before the sockets' hook, so it runs after it: the sockets go first.
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { LIVE_MAX_SOCKETS_PER_ADDRESS: '2' } })
  })
  afterAll(() => {
    for (const socket of open) socket.terminate()
  })

  it('ignores X-Forwarded-For, so a client cannot claim fresh addresses to pass its cap', async () => {
    for (const claimed of ['192.0.2.1', '192.0.2.2']) {
      const { status, socket } = await upgrade(server.wsUrl, claimed)
      expect(status).toBe(101)
      open.push(socket!)
    }
    expect((await upgrade(server.wsUrl, '192.0.2.3')).status).toBe(429)
  })
})
