import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { SubmissionEvents } from './events.server'
import type { Submission } from '#app/leads/lead'
import { attachLiveRelay, type RelayOptions } from './relay.server'
import { quietLog } from '#tests/support/quiet-log'

const submission: Submission = {
  id: 1,
  name: 'Ann',
  email: 'ann@example.com',
  message: 'Eggs?',
  aiResponse: null,
  analysis: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  spam: null,
  status: 'new',
  awaitingAnalysis: false,
  replies: [],
  replyCount: 0,
  history: [],
  answersUpdate: null,
}

const everyone = { session: null, expiresAt: Number.POSITIVE_INFINITY }
let server: Server
let relay: ReturnType<typeof attachLiveRelay>
const sockets: WebSocket[] = []

async function start(options: Partial<RelayOptions> = {}) {
  const events = new SubmissionEvents()
  server = createServer((_req, res) => res.end('page'))
  relay = attachLiveRelay(server, events, {
    admit: async () => everyone,
    mostSockets: 10,
    mostSocketsPerAddress: 10,
    // Every test socket comes from 127.0.0.1; a header stands in for other addresses.
    addressOf: (req) => String(req.headers['x-test-address'] ?? req.socket.remoteAddress),
    countsOf: (event) => (!('data' in event) ? [] : [{ kind: 'status', value: event.data.status, count: 3, at: 1 }]),
    log: quietLog,
    ...options,
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { events, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

function open(url: string, options: ConstructorParameters<typeof WebSocket>[2] = {}) {
  const socket = new WebSocket(url, options)
  sockets.push(socket)
  return new Promise<WebSocket>((resolve, reject) => {
    socket.once('open', () => resolve(socket))
    socket.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)))
    socket.once('error', reject)
  })
}

function closed(socket: WebSocket) {
  return new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)))
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate()
  relay?.close()
  await new Promise((resolve) => server?.close(resolve))
})

describe('the live relay', () => {
  it('sends each new submission to every open socket as {type, data, counts}', async () => {
    const { events, url } = await start()
    const [first, second] = await Promise.all([open(url), open(url)])
    const received = [first!, second!].map(
      (socket) => new Promise((resolve) => socket.once('message', (raw) => resolve(JSON.parse(String(raw))))),
    )
    events.publish({ type: 'NEW_SUBMISSION', data: submission })
    const counts = [{ kind: 'status', value: 'new', count: 3, at: 1 }]
    expect(await Promise.all(received)).toEqual([
      { type: 'NEW_SUBMISSION', data: submission, counts },
      { type: 'NEW_SUBMISSION', data: submission, counts },
    ])
  })

  it('relays an owner’s change as SUBMISSION_UPDATED', async () => {
    const { events, url } = await start()
    const socket = await open(url)
    const received = new Promise((resolve) => socket.once('message', (raw) => resolve(JSON.parse(String(raw)))))
    const handled = { ...submission, status: 'handled' as const }
    events.publish({ type: 'SUBMISSION_UPDATED', data: handled })
    expect(await received).toEqual({
      type: 'SUBMISSION_UPDATED',
      data: handled,
      counts: [{ kind: 'status', value: 'handled', count: 3, at: 1 }],
    })
  })

  it('refuses an upgrade with the status the admission check gives', async () => {
    const { url } = await start({
      admit: async (req) => (req.headers.origin === 'https://evil.example' ? 403 : everyone),
    })
    await expect(open(url, { origin: 'https://evil.example' })).rejects.toThrow('refused 403')
    await expect(open(url)).resolves.toBeInstanceOf(WebSocket)
  })

  it('closes a socket once the session that opened it expires, and only that one', async () => {
    let clock = 1_000
    const { url } = await start({
      heartbeatMs: 20,
      now: () => clock,
      admit: async (req) => ({ session: String(req.headers['x-session']), expiresAt: Number(req.headers['x-until']) }),
    })
    const ending = await open(url, { headers: { 'x-session': 'a', 'x-until': '5000' } })
    const lasting = await open(url, { headers: { 'x-session': 'b', 'x-until': '9000' } })
    const lastingClosed = vi.fn()
    lasting.on('close', lastingClosed)
    const ended = closed(ending)
    clock = 5_000
    expect(await ended).toBe(1008)
    expect(lastingClosed).not.toHaveBeenCalled()
    expect(lasting.readyState).toBe(WebSocket.OPEN)
  })

  it('closes every socket of a session that signs out, and only those', async () => {
    const { url } = await start({
      admit: async (req) => ({ session: String(req.headers['x-session']), expiresAt: Number.POSITIVE_INFINITY }),
    })
    const [first, second, other] = await Promise.all([
      open(url, { headers: { 'x-session': 'a' } }),
      open(url, { headers: { 'x-session': 'a' } }),
      open(url, { headers: { 'x-session': 'b' } }),
    ])
    const codes = Promise.all([closed(first!), closed(second!)])
    relay.endSession('a')
    expect(await codes).toEqual([1008, 1008])
    expect(other!.readyState).toBe(WebSocket.OPEN)
  })

  it('only upgrades at the server root', async () => {
    const { url } = await start()
    await expect(open(`${url}/elsewhere`)).rejects.toThrow('refused 404')
  })

  it('refuses sockets past the cap', async () => {
    const { url } = await start({ mostSockets: 2 })
    await open(url)
    await open(url)
    await expect(open(url)).rejects.toThrow('refused 503')
  })

  it('refuses an address past its own cap while other addresses are still admitted, and frees the slot on close', async () => {
    const { url } = await start({ mostSocketsPerAddress: 2 })
    const from = (address: string) => ({ headers: { 'x-test-address': address } })
    const [first] = await Promise.all([open(url, from('203.0.113.1')), open(url, from('203.0.113.1'))])
    await expect(open(url, from('203.0.113.1'))).rejects.toThrow('refused 429')
    await expect(open(url, from('203.0.113.2'))).resolves.toBeInstanceOf(WebSocket)
    first!.close()
    await closed(first!)
    // The server sees the close a moment after the client does.
    await expect
      .poll(() =>
        open(url, from('203.0.113.1')).then(
          () => 'admitted',
          () => 'refused',
        ),
      )
      .toBe('admitted')
  })

  it('counts a whole IPv6 /64 as one address', async () => {
    const { url } = await start({ mostSocketsPerAddress: 1 })
    await open(url, { headers: { 'x-test-address': '2001:db8:1:2::1' } })
    await expect(open(url, { headers: { 'x-test-address': '2001:db8:1:2::9' } })).rejects.toThrow('refused 429')
  })

  it('ignores what a watcher sends, but closes with 1009 on a frame over 4 KB', async () => {
    const { events, url } = await start()
    const socket = await open(url)
    socket.send('hello farm')
    socket.send(JSON.stringify({ type: 'NEW_SUBMISSION', data: { ...submission, name: 'Forged' } }))
    const next = new Promise((resolve) => socket.once('message', (raw) => resolve(JSON.parse(String(raw)))))
    events.publish({ type: 'NEW_SUBMISSION', data: submission })
    expect(await next).toEqual({
      type: 'NEW_SUBMISSION',
      data: submission,
      counts: [{ kind: 'status', value: 'new', count: 3, at: 1 }],
    })

    const code = closed(socket)
    socket.send('x'.repeat(4 * 1024 + 1))
    expect(await code).toBe(1009)
  })

  it('ends sockets that stop answering pings', async () => {
    // Long enough that a pause of this process (a collection, another suite) cannot make the
    // answering socket look silent; the shipped beat is longer still.
    const { url } = await start({ heartbeatMs: 500 })
    const silent = await open(url, { autoPong: false })
    const answering = await open(url)
    expect(await closed(silent)).toBe(1006)
    expect(answering.readyState).toBe(WebSocket.OPEN)
  })

  it('drops a socket that stopped reading once more than 1 MB waits for it', async () => {
    const { events, url } = await start()
    const stuck = await open(url)
    const reading = await open(url)
    const stuckClosed = closed(stuck)
    // Stop reading from the network: the server's send buffer fills up.
    ;(stuck as unknown as { _socket: { pause(): void } })._socket.pause()
    let receivedByReader = 0
    reading.on('message', () => receivedByReader++)
    const big = { ...submission, message: 'x'.repeat(64 * 1024) }
    for (let i = 0; i < 400 && stuck.readyState === WebSocket.OPEN; i++) {
      events.publish({ type: 'NEW_SUBMISSION', data: { ...big, id: i } })
      await new Promise((resolve) => setImmediate(resolve))
    }
    ;(stuck as unknown as { _socket: { resume(): void } })._socket.resume()
    expect(await stuckClosed).toBe(1006)
    await expect.poll(() => receivedByReader).toBeGreaterThan(0)
    expect(reading.readyState).toBe(WebSocket.OPEN)
  })

  it('closes every socket with 1001 when the server shuts down', async () => {
    const { url } = await start()
    const socket = await open(url)
    const code = closed(socket)
    relay.close()
    expect(await code).toBe(1001)
  })
})
