// The live relay at the size of a market day: 1,000 watchers at the shipped global cap
// (LIVE_MAX_SOCKETS, 2,000) each receive every new submission, once, as text; past the global
// cap a socket is refused with 503.
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { serverPerTest } from '#tests/support/server-per-test'

const serve = serverPerTest()
const sockets: WebSocket[] = []
// Registered after the servers' hook, so it runs before it: the sockets go first.
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.terminate()
})

interface Watcher {
  socket: WebSocket
  received: Array<{ id: unknown; text: boolean }>
}

function watch(wsUrl: string): Promise<Watcher | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl)
    const watcher: Watcher = { socket, received: [] }
    socket.on('message', (raw, isBinary) => {
      const message = JSON.parse(raw.toString())
      watcher.received.push({ id: message.data?.id, text: !isBinary })
    })
    socket.once('open', () => {
      sockets.push(socket)
      resolve(watcher)
    })
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    socket.once('error', reject)
  })
}

async function post(url: string, n: number): Promise<number> {
  const response = await fetch(`${url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: `Watcher test ${n}`,
      email: `buyer${n}@example.com`,
      message: 'Two trays of eggs, please.',
    }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: number } }).data.id
}

describe('live fan-out', () => {
  it('delivers every submission to each of 1,000 watchers, once and in order', { timeout: 60_000 }, async () => {
    // Every watcher here comes from 127.0.0.1; the per-address cap (20) would refuse all but
    // 20 of them, so it is raised. The global cap keeps its shipped default.
    const server = await serve({ env: { LIVE_MAX_SOCKETS_PER_ADDRESS: '1000' } })
    const watchers: Watcher[] = []
    while (watchers.length < 1_000) {
      const batch = await Promise.all(Array.from({ length: 100 }, () => watch(server.wsUrl)))
      for (const watcher of batch) {
        expect(watcher).not.toEqual(expect.any(Number))
        watchers.push(watcher as Watcher)
      }
    }
    const ids = []
    for (let n = 0; n < 3; n++) ids.push(await post(server.url, n))
    const expected = ids.map((id) => ({ id, text: true }))
    await expect
      .poll(() => watchers.filter((watcher) => watcher.received.length >= ids.length).length, { timeout: 20_000 })
      .toBe(1_000)
    for (const watcher of watchers) expect(watcher.received).toEqual(expected)
  })

  it('refuses the socket past LIVE_MAX_SOCKETS with 503, and admits one again once another has left', async () => {
    const server = await serve({ env: { LIVE_MAX_SOCKETS: '3' } })
    const admitted = await Promise.all([watch(server.wsUrl), watch(server.wsUrl), watch(server.wsUrl)])
    for (const watcher of admitted) expect(watcher).not.toEqual(expect.any(Number))
    expect(await watch(server.wsUrl)).toBe(503)
    const leaving = (admitted[0] as Watcher).socket
    await new Promise((resolve) => {
      leaving.once('close', resolve)
      leaving.close()
    })
    await expect
      .poll(async () => {
        const again = await watch(server.wsUrl)
        return typeof again === 'number' ? again : 101
      })
      .toBe(101)
  })
})
