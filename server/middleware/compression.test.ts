import { once } from 'node:events'
import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createGunzip } from 'node:zlib'
import { writeReadableStreamToWritable } from '@remix-run/node'
import express from 'express'
import { afterEach, expect, it } from 'vitest'
import { compressResponses } from './compression'

let server: Server | undefined
afterEach(() => {
  server?.close()
})

it('passes each chunk Remix streams on at once, compressed, instead of holding it until the end', async () => {
  let firstArrived!: () => void
  const arrived = new Promise<void>((resolve) => (firstArrived = resolve))
  const app = express()
  app.use(compressResponses())
  app.get('/', async (_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8')
    const encoder = new TextEncoder()
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode('<p>first</p>'))
        // The rest is only written once the client has decoded the first part; a compressor
        // that buffered until the end would never let it arrive.
        await arrived
        controller.enqueue(encoder.encode('<p>second</p>'))
        controller.close()
      },
    })
    await writeReadableStreamToWritable(stream, res)
  })
  server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo

  const decoded = await new Promise<string>((resolve, reject) => {
    request({ port, host: '127.0.0.1', path: '/', headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      expect(res.headers['content-encoding']).toBe('gzip')
      let text = ''
      res
        .pipe(createGunzip())
        .on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8')
          if (text.includes('first')) firstArrived()
        })
        .on('end', () => resolve(text))
        .on('error', reject)
    })
      .on('error', reject)
      .end()
  })
  expect(decoded).toBe('<p>first</p><p>second</p>')
})
