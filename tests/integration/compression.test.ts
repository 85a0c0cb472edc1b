import { once } from 'node:events'
import { request } from 'node:http'
import { connect } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { sendFullFirstPage } from '#tests/support/seed'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

let server: RunningServer

const serve = serverPerFile()
beforeAll(async () => {
  server = await serve()
})

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** The bytes as sent, not decoded (fetch would decode them). */
function getRaw(path: string, acceptEncoding?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(`${server.url}${path}`, { headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
}

const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const

async function assetsOfHomePage(): Promise<string[]> {
  const page = (await getRaw('/')).body.toString('utf8')
  return [...new Set(page.match(/\/build\/[\w./-]+\.(?:js|css)/g) ?? [])]
}

describe('compression', () => {
  it('sends each bundle of / compressed ahead of time, decoding to the same bytes, with Vary and the cache kept', async () => {
    const assets = await assetsOfHomePage()
    expect(assets.length).toBeGreaterThan(3)
    let compressed = 0
    for (const asset of assets) {
      const plain = await getRaw(asset)
      expect(plain.status).toBe(200)
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.headers.vary).toMatch(/Accept-Encoding/i)
      for (const encoding of ['br', 'gzip'] as const) {
        const packed = await getRaw(asset, encoding === 'br' ? 'gzip;q=0.5, br' : 'gzip')
        expect(packed.status, asset).toBe(200)
        expect(packed.headers['content-type'], asset).toBe(plain.headers['content-type'])
        expect(packed.headers.vary).toMatch(/Accept-Encoding/i)
        expect(packed.headers['cache-control']).toBe('public, max-age=31536000, immutable')
        // A file of a few bytes may not be worth compressing; anything bigger always is.
        if (plain.body.length >= 1024) expect(packed.headers['content-encoding'], asset).toBe(encoding)
        if (packed.headers['content-encoding'] === undefined) {
          expect(packed.body.equals(plain.body), asset).toBe(true)
          continue
        }
        compressed++
        expect(packed.headers['content-encoding'], asset).toBe(encoding)
        expect(packed.body.length).toBeLessThan(plain.body.length)
        expect(decode[encoding](packed.body).equals(plain.body), asset).toBe(true)
      }
    }
    expect(compressed).toBeGreaterThanOrEqual(6)
  })

  it('compresses pages and JSON as they are sent, and leaves them plain for a client that asks for nothing', async () => {
    for (const path of ['/', '/farm-sales', '/api/submissions', '/no-such-page']) {
      const plain = await getRaw(path)
      const packed = await getRaw(path, 'br, gzip')
      expect(packed.status, path).toBe(plain.status)
      expect(plain.headers['content-encoding'], path).toBeUndefined()
      expect(packed.headers['content-encoding'], path).toBe('br')
      expect(packed.headers.vary, path).toMatch(/Accept-Encoding/i)
      const text = decode.br(packed.body).toString('utf8')
      if (path === '/api/submissions') expect(JSON.parse(text)).toEqual(JSON.parse(plain.body.toString('utf8')))
      else expect(text).toMatch(/<\/html>$/)
    }
  })
})

describe('first paint', () => {
  it('inlines the stylesheet in the page, so no stylesheet request blocks it', async () => {
    const page = (await getRaw('/')).body.toString('utf8')
    expect(page).not.toMatch(/<link[^>]+rel="stylesheet"/)
    const style = page.match(/<style id="stylesheet" data-sheet="visitor">([\s\S]*?)<\/style>/)?.[1] ?? ''
    expect(style).toContain('.bg-amber-50')
    expect(style.length).toBeGreaterThan(5_000)
  })
})

describe('a full inbox on a phone', () => {
  beforeAll(async () => {
    await sendFullFirstPage(server.url)
  })

  it('sends the page of 25 cards, headers and all, in TCP’s first window (10 segments, 14,600 bytes)', async () => {
    const page = decode.br((await getRaw('/farm-sales', 'br, gzip')).body).toString('utf8')
    expect(page.match(/data-testid="submission-card"/g)).toHaveLength(25)
    expect(page).toContain('Customer 1 asks about honey')
    // Every byte of the answer as it goes over the wire: status line, headers, chunk framing, body.
    const { hostname, port } = new URL(server.url)
    const socket = connect(Number(port), hostname)
    socket.write(
      `GET /farm-sales HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept-Encoding: br, gzip\r\nConnection: close\r\n\r\n`,
    )
    let wireBytes = 0
    socket.on('data', (chunk: Buffer) => (wireBytes += chunk.length))
    await once(socket, 'close')
    expect(wireBytes).toBeGreaterThan(5_000)
    expect(wireBytes).toBeLessThan(14_600)
  })

  it('fetches no script that is only a stand-in for server code, on the home page or the inbox', async () => {
    const scripts: string[] = []
    for (const path of ['/', '/farm-sales']) {
      const page = (await getRaw(path)).body.toString('utf8')
      const preloaded = [...page.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1]!)
      expect(preloaded.length, path).toBeGreaterThan(3)
      scripts.push(...preloaded)
    }
    // esbuild's wrapping of `module.exports = {}`, what a `.server` module or @remix-run/node
    // becomes in the browser: a file of nothing else is a request for nothing.
    const onlyStandIns =
      /^(?:import\{[^}]*\}from"[^"]+";)*(?:var [\w$]+=[\w$]+\(\([\w$]+,[\w$]+\)=>\{[\w$]+\.exports=\{\}\}\);)+(?:export\{[^}]*\};)?\s*$/
    for (const script of scripts) {
      const text = (await getRaw(script)).body.toString('utf8')
      expect(text, script).not.toMatch(onlyStandIns)
    }
    expect(
      'import{b as e}from"/build/_shared/chunk-Q3IECNXJ.js";var o=e((r,t)=>{t.exports={}});export{o as a};',
    ).toMatch(onlyStandIns)
  })
})
