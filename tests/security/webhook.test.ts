// The webhook posts to the owner's own endpoint only: a redirect is not followed (a 3xx is a
// failed try, retried), and a lead a stranger sends reaches it once, as data, never as headers.
import { createServer, type Server } from 'node:http'
import { randomBytes } from 'node:crypto'
import { afterEach, expect, it } from 'vitest'
import { freePort } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import { readRows } from '#tests/support/database'

const receivers: Server[] = []
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await new Promise((resolve) => receiver.close(resolve))
})
// Registered after the receivers' hook, so it runs before it: the site stops first.
const serve = serverPerTest('SIGKILL')

async function listen(handler: Parameters<typeof createServer>[1]) {
  const server = createServer(handler)
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  receivers.push(server)
  return `http://127.0.0.1:${port}`
}

it('does not follow a redirect from the endpoint, and keeps a visitor’s text out of the headers', async () => {
  const elsewhere: string[] = []
  const target = await listen((req, res) => {
    elsewhere.push(req.url ?? '')
    res.writeHead(204).end()
  })
  const seen: Array<{ headers: Record<string, unknown>; body: string }> = []
  const endpoint = await listen((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      seen.push({ headers: req.headers, body })
      res.writeHead(307, { Location: `${target}/stolen` }).end()
    })
  })
  const server = await serve({
    env: { WEBHOOK_URL: `${endpoint}/hooks`, WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}` },
  })
  const answer = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Ann', email: 'ann@example.com', message: 'Eggs?\r\nX-Injected: yes\r\n\r\nmore' }),
  })
  expect(answer.status).toBe(201)
  await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1)
  // Marked to be tried again once its answer (the 307) was read: a redirect followed would have reached elsewhere first.
  await expect
    .poll(() => readRows(server.databasePath, "SELECT state FROM deliveries WHERE kind = 'webhook-post'"))
    .toEqual([{ state: 'retrying' }])
  expect(elsewhere).toEqual([])
  expect(seen[0]!.headers['x-injected']).toBeUndefined()
  expect(JSON.parse(seen[0]!.body).data.message).toBe('Eggs?\r\nX-Injected: yes\r\n\r\nmore')
})
