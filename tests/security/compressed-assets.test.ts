import { request } from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

// The compressed copies of the bundles are chosen by the request's path and Accept-Encoding:
// neither may reach a file outside public/build, or pick an encoding the client refused.
let server: RunningServer

const serve = serverPerFile()
beforeAll(async () => {
  server = await serve()
})

function getRaw(path: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<{ status: number; encoding?: string; body: Buffer }>((resolve, reject) => {
    request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: res.headers['content-encoding'],
          body: Buffer.concat(chunks),
        }),
      )
      res.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
}

async function largestBundle(): Promise<string> {
  const page = (await getRaw('/', {})).body.toString('utf8')
  const scripts = [...new Set(page.match(/\/build\/[\w./-]+\.js/g) ?? [])]
  const sizes = await Promise.all(scripts.map(async (path) => ({ path, size: (await getRaw(path, {})).body.length })))
  return sizes.sort((a, b) => b.size - a.size)[0]!.path
}

describe('compressed bundles', () => {
  it('refuses a bundle path spelled to reach outside the build folder, compressed or not', async () => {
    for (const path of [
      '/build/..%2f..%2fpackage.json',
      '/build/%2e%2e/%2e%2e/package.json',
      '/build/../../package.json',
    ]) {
      const response = await getRaw(path, { 'Accept-Encoding': 'br, gzip' })
      expect(response.status, path).not.toBe(200)
      expect(response.body.toString('latin1')).not.toContain('"dependencies"')
    }
  })

  it('honours an encoding the client refuses (q=0) and answers HEAD with the headers only', async () => {
    const bundle = await largestBundle()
    expect((await getRaw(bundle, { 'Accept-Encoding': 'br;q=0, gzip' })).encoding).toBe('gzip')
    expect((await getRaw(bundle, { 'Accept-Encoding': 'br;q=0, gzip;q=0' })).encoding).toBeUndefined()
    expect((await getRaw(bundle, { 'Accept-Encoding': 'identity' })).encoding).toBeUndefined()
    const head = await getRaw(bundle, { 'Accept-Encoding': 'br' }, 'HEAD')
    expect(head).toMatchObject({ status: 200, encoding: 'br' })
    expect(head.body.length).toBe(0)
    // Only GET and HEAD read a bundle; a POST is refused as a method the path does not serve.
    expect((await getRaw(bundle, { 'Accept-Encoding': 'br' }, 'POST')).status).toBe(405)
  })
})
