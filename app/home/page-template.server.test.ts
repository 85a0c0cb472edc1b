import { randomBytes } from 'node:crypto'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { brotlied, filled, gzipped, templateOf, type Filling } from './page-template.server'

const rendered: Filling = {
  nonce: 'S46FprcsBjQbwQLH7XMP1g==',
  token: '1795900272286.ACsGXQhxExSqG8XKqt-Rj2nDeFEjE9ZX9se3Tg6DnlM',
}

/** A page shaped like the home page: a long stylesheet, the token twice and the nonce on three scripts. */
function pageWith({ nonce, token }: Filling, extra = '') {
  const rules = Array.from({ length: 600 }, (_, n) => `.mt-${n}{margin-top:calc(var(--spacing) * ${n})}`).join('')
  return [
    `<!DOCTYPE html><html lang="en"><head><title>Willow Creek Farm — Fresh from our fields</title><style>${rules}</style></head>`,
    `<body><h1>Welcome to <!-- -->Willow Creek Farm${extra}</h1><form><input type="hidden" name="formToken" value="${token}"/></form>`,
    `<script nonce="${nonce}">console.log("positions")</script><script nonce="${nonce}">window.__remixContext = {"formToken":"${token}"};</script>`,
    `<script nonce="${nonce}" type="module" async="">import("/build/entry.client.js");</script></body></html>`,
  ].join('')
}

const another = (): Filling => ({
  nonce: randomBytes(16).toString('base64'),
  token: `${Date.now()}.${randomBytes(32).toString('base64url')}`,
})

describe('the kept page', () => {
  it('is cut at every nonce and token, and filled with another answer’s to the byte', async () => {
    const page = (await templateOf(pageWith(rendered), rendered))!
    expect(page.holes).toEqual(['token', 'nonce', 'nonce', 'token', 'nonce'])
    const filling = another()
    expect(filled(page, filling).toString()).toBe(pageWith(filling))
  })

  it('opens in gzip and brotli to the page with each answer’s own values', async () => {
    const page = (await templateOf(pageWith(rendered), rendered))!
    expect(page.gzip).not.toBeNull()
    expect(page.brotli).not.toBeNull()
    for (let round = 0; round < 50; round++) {
      const filling = another()
      const expected = Buffer.from(pageWith(filling))
      expect(gunzipSync(gzipped({ ...page, gzip: page.gzip! }, filling)).equals(expected)).toBe(true)
      expect(brotliDecompressSync(brotlied({ ...page, brotli: page.brotli! }, filling)!).equals(expected)).toBe(true)
    }
  })

  it('is smaller in brotli than in gzip, and both far smaller than the page', async () => {
    const page = (await templateOf(pageWith(rendered), rendered))!
    const plain = filled(page, rendered).length
    const br = brotlied({ ...page, brotli: page.brotli! }, rendered)!.length
    const gz = gzipped({ ...page, gzip: page.gzip! }, rendered).length
    expect(br).toBeLessThan(gz)
    expect(gz).toBeLessThan(plain / 3)
  })

  it('has no brotli form for a page holding a stand-in byte, and no brotli answer for a value of another length', async () => {
    const odd = (await templateOf(pageWith(rendered, '\u0001'), rendered))!
    expect(odd.brotli).toBeNull()
    const filling = another()
    expect(gunzipSync(gzipped({ ...odd, gzip: odd.gzip! }, filling)).toString()).toBe(pageWith(filling, '\u0001'))
    const page = (await templateOf(pageWith(rendered), rendered))!
    expect(brotlied({ ...page, brotli: page.brotli! }, { ...filling, nonce: `${filling.nonce}x` })).toBeNull()
  })

  it('is not kept without both values in it', async () => {
    expect(await templateOf(pageWith(rendered).replaceAll(rendered.token, ''), rendered)).toBeNull()
    expect(await templateOf(pageWith(rendered).replaceAll(rendered.nonce, ''), rendered)).toBeNull()
    expect(await templateOf(pageWith(rendered), { ...rendered, token: '' })).toBeNull()
  })
})
