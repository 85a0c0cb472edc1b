import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { plainChoice } from '#app/home/rendered-once.server'
import { compressResponses } from './middleware/compression'

// The kept home page is compressed ahead and sent as the compressor would: for every list of
// names a browser sends, its pick must be the compressor's own.
const app = express()
app.use(compressResponses())
app.get('/', (_req, res) => res.type('html').send(`<!DOCTYPE html><p>${'Fresh eggs. '.repeat(200)}</p>`))
let port = 0
let server: Server
beforeAll(async () => {
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening))
  })
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

function compressorPick(acceptEncoding: string | null) {
  return new Promise<string | null>((resolve, reject) => {
    const headers = acceptEncoding === null ? {} : { 'Accept-Encoding': acceptEncoding }
    request({ host: '127.0.0.1', port, path: '/', headers }, (res) => {
      res.resume()
      const encoding = res.headers['content-encoding']
      res.on('end', () => resolve(encoding ?? null))
    })
      .on('error', reject)
      .end()
  })
}

describe('the kept page’s encoding', () => {
  const plainLists = [
    'br, gzip',
    'gzip, br',
    'gzip, deflate, br, zstd',
    'gzip, deflate',
    'gzip',
    'br',
    'BR, GZIP',
    ' gzip ,  br ',
    'zstd, br',
    'zstd, gzip',
    'gzip,,br',
  ]
  it.each(plainLists)('is the compressor’s pick for %j', async (list) => {
    expect(plainChoice(list)).toBe(await compressorPick(list))
  })

  const leftToTheCompressor = [
    null,
    '',
    'identity',
    'deflate',
    'zstd',
    '*',
    'gzip;q=0',
    'br;q=0.1, gzip',
    'gzip;q=1, br;q=0.5',
  ]
  it.each(leftToTheCompressor)('is left to the compressor for %j', (list) => {
    expect(plainChoice(list)).toBeNull()
  })
})
