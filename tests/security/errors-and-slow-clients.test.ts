// Bad requests get a short answer and one JSON log line, never a stack trace, whatever the
// mode; clients that trickle their request are cut off.
import { connect } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { refusedUploadLingerMs } from '#server/middleware/body-limit'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

describe('with NODE_ENV unset, as `npm start` runs', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { NODE_ENV: '' } })
  })

  it.each<{ name: string; method: string; path: string; headers: Record<string, string>; status: number }>([
    { name: 'an undecodable path', method: 'GET', path: '/%', headers: {}, status: 400 },
    { name: 'an undecodable API path', method: 'GET', path: '/api/%E0%A4%A', headers: {}, status: 400 },
    { name: 'TRACE', method: 'TRACE', path: '/', headers: {}, status: 405 },
    // Node's own parser refuses methods it does not know.
    { name: 'TRACK', method: 'TRACK', path: '/', headers: {}, status: 400 },
    { name: 'PROPFIND', method: 'PROPFIND', path: '/farm-sales', headers: {}, status: 405 },
    { name: 'a Host with a space', method: 'GET', path: '/', headers: { Host: 'a b' }, status: 400 },
    { name: 'a Host with a path', method: 'GET', path: '/', headers: { Host: 'farm.example/x' }, status: 400 },
    {
      name: 'a Host that is a URL',
      method: 'GET',
      path: '/api/submissions',
      headers: { Host: 'http://x' },
      status: 400,
    },
    // Absolute-form targets and `*` are not paths on this site (Remix failed on them with a 500).
    {
      name: 'an absolute-form target',
      method: 'GET',
      path: 'http://evil.example/farm-sales',
      headers: {},
      status: 400,
    },
    {
      name: 'an absolute-form POST',
      method: 'POST',
      path: 'http://127.0.0.1/api/%73ubmissions',
      headers: {},
      status: 400,
    },
    { name: 'OPTIONS *', method: 'OPTIONS', path: '*', headers: {}, status: 400 },
  ])('answers $name with $status and no stack or file path', async ({ method, path, headers, status }) => {
    const answer = await rawRequest(server.url, { method, path, headers })
    expect(answer.status).toBe(status)
    expect(answer.text).not.toMatch(/\bat \w|node_modules|\/work\/|<pre>/)
    expect(answer.text.length).toBeLessThan(200)
  })

  it.each(['/api/submissions', '/API/Submissions', '/Api/submissions/1'])(
    'refuses a foreign page on %s in JSON, however the API path is spelled',
    async (path) => {
      const answer = await rawRequest(server.url, {
        path,
        headers: { Origin: 'https://evil.example', Accept: 'text/html', 'Content-Type': 'application/json' },
        body: '{}',
      })
      expect(answer.status).toBe(403)
      expect(answer.headers['content-type']).toMatch(/^application\/json/)
      expect(JSON.parse(answer.text)).toEqual({ error: 'Requests from other sites are not accepted here.' })
    },
  )

  it('logs each failure as one JSON line and nothing else, in the production mode it decided on', async () => {
    await rawRequest(server.url, { method: 'GET', path: '/%' })
    const lines = server.output().split('\n').filter(Boolean)
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow()
    expect(lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'listening')).toMatchObject({
      mode: 'production',
    })
  })
})

describe('slow clients', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
  })

  /**
   * Opens a raw connection, sends `first`, then one byte every `everyMs`; resolves once the server
   * closes it, with how many bytes had been dripped by then and what it answered. Only the server
   * ends it: a trickle never cut would run until the test's own timeout.
   */
  function trickle(first: string, everyMs: number): Promise<{ dripped: number; answer: string }> {
    return new Promise((resolve) => {
      let dripped = 0
      const socket = connect(server.port, '127.0.0.1', () => socket.write(first))
      let answer = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk) => (answer += chunk))
      const dripping = setInterval(() => socket.write('x', () => dripped++), everyMs)
      socket.on('error', () => {})
      socket.on('close', () => {
        clearInterval(dripping)
        resolve({ dripped, answer })
      })
    })
  }

  it('cuts a body trickling one byte every 5 s, long before it is whole', { timeout: 60_000 }, async () => {
    const { dripped, answer } = await trickle(
      'POST /api/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      5_000,
    )
    // Cut by the server (Node's request timeout), which says so, with bytes of the body still to come.
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(dripped).toBeLessThan(1_000)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })

  it('answers 413 to a body too large, and keeps the connection for the next request once that body has ended', async () => {
    const body = 'x'.repeat(100_000)
    const socket = connect(server.port, '127.0.0.1')
    socket.setEncoding('utf8')
    let answer = ''
    let closed = false
    const waiting: Array<() => void> = []
    socket.on('data', (chunk) => ((answer += chunk), waiting.splice(0).forEach((look) => look())))
    socket.on('close', () => ((closed = true), waiting.splice(0).forEach((look) => look())))
    const answered = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const look = () => {
          if ((answer.match(/HTTP\/1\.1 \d{3} /g) ?? []).length >= count && answer.endsWith('}')) resolve()
          else if (closed) reject(new Error(`closed after: ${answer.match(/HTTP\/1\.1 \d{3}/g)}`))
          else waiting.push(look)
        }
        look()
      })
    socket.write(
      `POST /api/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    )
    await answered(1)
    // A pooled connection is used again later (a browser's, undici's): past the time a refused upload lingers.
    await new Promise((resolve) => setTimeout(resolve, refusedUploadLingerMs + 500))
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await answered(2)
    socket.destroy()
    expect(answer.match(/HTTP\/1\.1 \d{3} /g)).toEqual(['HTTP/1.1 413 ', 'HTTP/1.1 200 '])
  })

  it.each([
    { asked: 'keep', connection: '' },
    { asked: 'close', connection: 'Connection: close\r\n' },
  ])(
    'gets its 413 to a client asking to $asked the connection that reads it late, after the refused upload lingered, still sending',
    async ({ connection }) => {
      // A busy phone or a loaded machine reads late: the answer is already in its buffer, and a
      // reset would throw it away. So the server ends its side and drains, never resets, then.
      const socket = connect(server.port, '127.0.0.1')
      socket.pause()
      let reset = false
      socket.on('error', () => (reset = true))
      socket.write(
        `POST /api/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n${connection}Content-Type: application/json\r\nContent-Length: 10000000\r\n\r\n`,
      )
      const sending = setInterval(() => socket.write('x'.repeat(4096)), 50)
      await new Promise((resolve) => setTimeout(resolve, refusedUploadLingerMs + 1_500))
      clearInterval(sending)
      let answer = ''
      socket.setEncoding('utf8')
      await new Promise<void>((resolve) => {
        socket.on('data', (chunk: string) => {
          answer += chunk
          if (answer.endsWith('}')) resolve()
        })
        socket.on('close', () => resolve())
        if (socket.destroyed) resolve()
        socket.resume()
      })
      socket.destroy()
      expect(reset).toBe(false)
      expect(answer).toMatch(/^HTTP\/1\.1 413 [\s\S]*The request body is larger than 16 KB\."\}$/)
    },
  )

  it(
    'ends its side for a refused upload still sending, and cuts it only at the request’s timeout if it goes on',
    { timeout: 60_000 },
    async () => {
      // A client that keeps its side open once the server has ended its own, and goes on sending.
      const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true })
      socket.setEncoding('utf8')
      const said: string[] = []
      socket.on('data', (chunk: string) => said.push(chunk))
      socket.on('error', () => said.push('(reset)'))
      const ended = new Promise<void>((resolve) => socket.once('end', () => (said.push('(end)'), resolve())))
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
      socket.write(
        'POST /api/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n',
      )
      const sending = setInterval(() => socket.writable && socket.write('x'.repeat(4096)), 100)
      await ended
      // Still open for what the client sends after the end: drained, not reset.
      expect(socket.destroyed).toBe(false)
      await closed
      clearInterval(sending)
      expect(said.join('')).toMatch(/^HTTP\/1\.1 413 [\s\S]*\(end\)\(reset\)$/)
    },
  )

  it('cuts headers trickling one byte every 2 s', { timeout: 40_000 }, async () => {
    const { answer } = await trickle('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 2_000)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
  })
})
