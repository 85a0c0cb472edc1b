import { once } from 'node:events'
import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createGunzip } from 'node:zlib'
import { writeReadableStreamToWritable } from '@remix-run/node'
import express from 'express'
import { afterEach, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { bundleFiles, compressResponses } from './compression'

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

it('answers 404, never 500, for a bundle removed since the start (a rebuild), and never hands it to the pages', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'bundles-'))
  writeFileSync(join(folder, 'entry-AB12.js'), 'console.log(1)')
  writeFileSync(join(folder, 'entry-AB12.js.br'), brotliCompressSync('console.log(1)'))
  writeFileSync(join(folder, 'gone-CD34.js'), 'console.log(2)')
  writeFileSync(join(folder, 'gone-CD34.js.br'), brotliCompressSync('console.log(2)'))
  const app = express()
  app.use('/build', bundleFiles(folder, { precompressed: true }))
  // As Remix answers a page: it appends its own type, which meets one already set as an array.
  app.use((_req, res) => {
    res.append('Content-Type', 'text/html; charset=utf-8')
    res.status(404).send('<p>page</p>')
  })
  app.use(((error, _req, res, _next) => res.status(500).send(String(error))) as express.ErrorRequestHandler)
  // The list of copies is read once at start; then a rebuild takes these away.
  rmSync(join(folder, 'gone-CD34.js.br'))
  rmSync(join(folder, 'gone-CD34.js'))
  server = app.listen(0)
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const get = (path: string) =>
    new Promise<{ status: number; type: string | undefined; encoding: string | undefined; body: string }>((resolve) => {
      request({ port, path, headers: { 'Accept-Encoding': 'br' } }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')))
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            type: res.headers['content-type'],
            encoding: res.headers['content-encoding'],
            body,
          }),
        )
      }).end()
    })
  const kept = await get('/build/entry-AB12.js')
  expect([kept.status, kept.encoding, kept.type]).toEqual([200, 'br', 'application/javascript; charset=UTF-8'])
  const gone = await get('/build/gone-CD34.js')
  expect([gone.status, gone.encoding, gone.type, gone.body]).toEqual([
    404,
    undefined,
    'text/plain; charset=utf-8',
    'No such file.',
  ])
  const never = await get('/build/never-EF56.js')
  expect([never.status, never.body]).toEqual([404, 'No such file.'])
})
