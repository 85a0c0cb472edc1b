import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLlmReader, type LlmSettings } from './llm.server'

const form = { name: 'Ann Lee', email: 'ann@example.com', message: 'Two dozen eggs for tomorrow please' }
const now = new Date('2026-06-10T09:00:00.000Z')
const goodAnalysis = {
  intents: ['order'],
  products: ['Eggs', 'caviar'],
  sentiment: { label: 'neutral', score: 0.1 },
  urgency: { level: 'high', cues: ['tomorrow'] },
  spam: { isSpam: false, reasons: [] },
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void
const completion = (content: string) => JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] })

/** A loopback chat-completions server; each test says how it answers. */
let server: Server
let baseUrl: string
let answer: Handler
const received: Array<{ headers: IncomingMessage['headers']; body: Record<string, unknown> }> = []

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return void res.writeHead(404).end()
      received.push({ headers: req.headers, body: JSON.parse(body) })
      answer(req, res, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

function reader(settings: Partial<LlmSettings> = {}) {
  return createLlmReader(
    { endpoint: `${baseUrl}/v1/chat/completions`, model: 'farm-model', timeoutMs: 2000, ...settings },
    ['eggs', 'honey'],
  )
}

const json = (res: ServerResponse, status: number, text: string) =>
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(text)

describe('the language model reader', () => {
  it('asks for the analysis as a JSON object and takes a good answer, keeping only the farm’s products', async () => {
    answer = (_req, res) => json(res, 200, completion(JSON.stringify(goodAnalysis)))
    received.length = 0
    const result = await reader({ apiKey: 'secret-key' })(form, now)
    expect(result).toEqual({
      ok: true,
      analysis: { ...goodAnalysis, products: ['eggs'], source: 'llm' },
    })
    const [request] = received
    expect(request?.headers.authorization).toBe('Bearer secret-key')
    expect(request?.body).toMatchObject({
      model: 'farm-model',
      response_format: { type: 'json_object' },
      stream: false,
    })
    const [system, user] = request?.body.messages as Array<{ role: string; content: string }>
    expect(system?.content).toContain('eggs, honey')
    // The mail's domain goes to the model, not the address.
    expect(JSON.parse(user?.content ?? '')).toEqual({
      name: 'Ann Lee',
      emailDomain: 'example.com',
      message: form.message,
    })
  })

  it('sends no Authorization header without a key, and accepts JSON in a Markdown fence', async () => {
    answer = (_req, res) => json(res, 200, completion(`\`\`\`json\n${JSON.stringify(goodAnalysis)}\n\`\`\``))
    received.length = 0
    expect((await reader()(form, now)).ok).toBe(true)
    expect(received[0]?.headers.authorization).toBeUndefined()
  })

  // Each model below holds its answer until the reader has given up: only giving up can end
  // the read, so no clock is needed to show it.
  it('gives up on a slow answer at the timeout', async () => {
    const held: ServerResponse[] = []
    answer = (_req, res) => held.push(res)
    const result = await reader({ timeoutMs: 200 })(form, now)
    expect(result).toEqual({ ok: false, reason: 'no answer within 200 ms' })
    for (const res of held) json(res, 200, completion(JSON.stringify(goodAnalysis)))
  })

  it('gives up on an answer that starts in time but trickles past the timeout', async () => {
    const held: ServerResponse[] = []
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).write('{"choices":')
      held.push(res)
    }
    expect(await reader({ timeoutMs: 200 })(form, now)).toEqual({ ok: false, reason: 'no answer within 200 ms' })
    for (const res of held) res.end(`[{"message":{"content":"{}"}}]}`)
  })

  it.each<[string, Handler, string]>([
    ['a server error', (_req, res) => json(res, 500, '{"error":"model not loaded"}'), 'the model answered HTTP 500'],
    ['a body that is not JSON', (_req, res) => json(res, 200, '<html>oops'), 'the answer is not a chat completion'],
    [
      'a reply that is not a chat completion',
      (_req, res) => json(res, 200, '{"result":"order"}'),
      'the answer is not a chat completion',
    ],
    [
      'content that is not JSON',
      (_req, res) => json(res, 200, completion('It is an order.')),
      'the analysis is not JSON',
    ],
    [
      'an analysis that does not fit',
      (_req, res) =>
        json(
          res,
          200,
          completion(JSON.stringify({ ...goodAnalysis, intents: ['shopping'], sentiment: { label: 'ok' } })),
        ),
      'the analysis does not fit (intents.0: invalid_value; sentiment.label: invalid_value; sentiment.score: invalid_type)',
    ],
    [
      'an over-long analysis',
      (_req, res) => json(res, 200, completion(JSON.stringify({ ...goodAnalysis, note: 'x'.repeat(5000) }))),
      'the analysis is longer than 4000 characters',
    ],
    [
      'an over-long answer',
      (_req, res) => json(res, 200, completion('x'.repeat(40_000))),
      'the answer is larger than 32 KB',
    ],
  ])('refuses %s', async (_case, handler, reason) => {
    answer = handler
    expect(await reader()(form, now)).toEqual({ ok: false, reason })
  })

  it('says when the model cannot be reached', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const result = await reader({ endpoint: `http://127.0.0.1:${port}/v1/chat/completions` })(form, now)
    expect(result).toEqual({ ok: false, reason: 'could not reach the model (ECONNREFUSED)' })
  })
})
