import { request } from 'node:http'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { photoWords } from '#app/photos/photo-words'
import { ownerPassword } from '#tests/support/owner'
import {
  heicFrom,
  homePhotos,
  jpegWithGps,
  photosPage,
  postPhotoForm,
  smallJpeg,
  svgDrawing,
  uploadPhoto,
} from '#tests/support/photos'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'
import { signInAs } from '#tests/support/team'

const serve = serverPerFile()
const withOwner = { env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback' } }
const problemOf = async (answer: Response) => ((await answer.json()) as { problem: { error: string } }).problem.error

/**
 * Streams `megabytes` of a multipart body without a Content-Length, and waits, the upload not
 * ended: the answer, and whether it came while the upload was still open. (Sending on past the
 * answer would race the server's close, which may reset the connection before the answer is read.)
 */
function streamUpload(server: RunningServer, cookie: string, megabytes: number, declared?: number) {
  return new Promise<{ status: number; text: string; whileOpen: boolean }>((resolve, reject) => {
    const { hostname, port } = new URL(server.url)
    const boundary = 'farm-boundary'
    const headers: Record<string, string> = {
      Cookie: cookie,
      Accept: 'text/html',
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      ...(declared ? { 'Content-Length': String(declared) } : {}),
    }
    let sent = 0
    let ended = false
    let answer: { status: number; text: string } | null = null
    // The server closes the connection once it has answered: whatever came by then is the answer.
    const settle = () => (answer ? resolve({ ...answer, whileOpen: !ended }) : reject(new Error('no answer')))
    const req = request({ hostname, port, path: photosPage, method: 'POST', headers, agent: false }, (res) => {
      answer = { status: res.statusCode ?? 0, text: '' }
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (answer!.text += chunk))
      res.on('end', () => {
        settle()
        req.destroy()
      })
      res.on('error', settle)
    })
    req.on('close', () => setImmediate(settle))
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error)
    })
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="big.jpg"\r\n\r\n`)
    if (declared) return
    const megabyte = Buffer.alloc(1024 * 1024, 0xab)
    const more = () => {
      while (sent < megabytes && !answer) {
        sent++
        if (!req.write(megabyte)) return void req.once('drain', more)
      }
      // Past the limit, the upload stays open; under it, it ends.
      if (sent * 1024 * 1024 < 15.5 * 1024 * 1024) {
        ended = true
        req.end()
      }
    }
    more()
  })
}

describe('the photos’ upload, attacked', () => {
  it('cuts an upload over 15 MB while it streams, declared or not, in the words of the photo’s limit', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    const streamed = await streamUpload(server, cookie, 16)
    // Answered once past the limit, while the upload is still open: never read to its end first.
    expect(streamed).toEqual({ status: 413, text: photoWords.tooLarge, whileOpen: true })
    const declared = await streamUpload(server, cookie, 0, 100 * 1024 * 1024)
    expect(declared).toEqual({ status: 413, text: photoWords.tooLarge, whileOpen: true })
    // Whoever is not signed in as an owner has the usual 16 KB.
    const stranger = await streamUpload(server, '', 16)
    expect(stranger).toEqual({ status: 413, text: 'The request body is larger than 16 KB.', whileOpen: true })
  })

  it('takes an owner’s photo through every spelling of the path Remix routes alike, and a stranger’s through none', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    const spellings = ['/farm-sales/page/photos/', '/farm%2Dsales/page/photos', '/FARM-SALES/Page/Photos']
    for (const [n, path] of spellings.entries()) {
      // Noise, so the photo is well over the usual 16 KB.
      const bytes = await sharp({
        create: {
          width: 300,
          height: 300,
          channels: 3,
          background: '#000',
          noise: { type: 'gaussian', mean: 128 + n, sigma: 60 },
        },
      })
        .jpeg({ quality: 95 })
        .toBuffer()
      expect(bytes.length).toBeGreaterThan(64 * 1024)
      const form = new FormData()
      form.append('intent', 'add')
      form.append('alt', `Noise ${n}`)
      form.append('photo', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'noise.jpg')
      const url = `${server.url}${path}?_data=${encodeURIComponent('routes/farm-sales_.page_.photos')}`
      const owner = await fetch(url, { method: 'POST', headers: { Cookie: cookie }, body: form })
      expect({ path, status: owner.status, body: owner.status === 204 ? '' : await owner.text() }).toEqual({
        path,
        status: 204,
        body: '',
      })
      // A stranger's same upload, declared by its length: refused before a byte of it is read.
      const stranger = await rawRequest(server.url, {
        path: `${path}?_data=${encodeURIComponent('routes/farm-sales_.page_.photos')}`,
        headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(bytes.length) },
      })
      expect({ path, status: stranger.status }).toEqual({ path, status: 413 })
    }
    expect((await homePhotos(server)).alts).toEqual(['Noise 0', 'Noise 1', 'Noise 2'])
  })

  it('goes by what the file is, never by its name or the type the browser says', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    const heic = await heicFrom(await jpegWithGps())
    // The same HEIC branded as an image sequence (`hevc`), as a phone's burst or live photo is.
    const sequence = Buffer.from(heic)
    sequence.write('hevc', 8, 'latin1')
    const jpeg = await smallJpeg(20)
    // A JPEG whose header says 60,000 × 60,000 pixels (3.6 gigapixels), patched into its SOF0.
    const huge = Buffer.from(jpeg)
    const sof = huge.indexOf(Buffer.from([0xff, 0xc0]))
    huge.writeUInt16BE(60_000, sof + 5)
    huge.writeUInt16BE(60_000, sof + 7)
    const cases: Array<[string, Buffer, string, string, string]> = [
      ['an SVG named .jpg, typed image/jpeg', svgDrawing, 'hens.jpg', 'image/jpeg', photoWords.svg],
      [
        'HTML named .png',
        Buffer.from('<!doctype html><script>alert(1)</script>'),
        'a.png',
        'image/png',
        photoWords.notAPhoto,
      ],
      ['a HEIC sequence', sequence, 'IMG_0001.HEIC', 'image/heic', photoWords.animated],
      ['a HEIC cut short', heic.subarray(0, heic.length - 2000), 'IMG_0002.HEIC', 'image/heic', photoWords.unreadable],
      [
        'a HEIC named .jpg, typed image/jpeg, cut short',
        heic.subarray(0, 4000),
        'IMG_0003.jpg',
        'image/jpeg',
        photoWords.unreadable,
      ],
      ['a header promising 3.6 gigapixels', huge, 'huge.jpg', 'image/jpeg', photoWords.tooManyPixels(60_000, 60_000)],
      ['a JPEG cut short', jpeg.subarray(0, jpeg.length - 200), 'cut.jpg', 'image/jpeg', photoWords.unreadable],
      ['an empty file', Buffer.alloc(0), 'empty.jpg', 'image/jpeg', photoWords.none],
    ]
    for (const [what, bytes, name, type, words] of cases) {
      const answer = await uploadPhoto(server, cookie, bytes, { name, type })
      expect({ what, status: answer.status, words: await problemOf(answer) }).toEqual({ what, status: 400, words })
    }
    const asText = await postPhotoForm(server, cookie, { intent: 'add', alt: 'Hens', photo: 'not a file' })
    expect(await problemOf(asText)).toBe(photoWords.none)
  })

  it('escapes the alt text, takes one photo a form, and refuses ids and intents it does not know', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    const alt = '"><img src=x onerror=alert(1)> Hens & <b>geese</b>'
    const form = new FormData()
    form.append('intent', 'add')
    form.append('alt', alt)
    form.append('photo', new Blob([new Uint8Array(await smallJpeg(31))], { type: 'image/jpeg' }), 'a.jpg')
    form.append('photo', new Blob([new Uint8Array(await smallJpeg(32))], { type: 'image/jpeg' }), 'b.jpg')
    const added = await fetch(`${server.url}${photosPage}?_data=routes%2Ffarm-sales_.page_.photos`, {
      method: 'POST',
      headers: { Cookie: cookie },
      body: form,
    })
    expect(added.status).toBe(204)
    const { section, alts } = await homePhotos(server)
    expect(alts).toEqual(['&quot;&gt;&lt;img src=x onerror=alert(1)&gt; Hens &amp; &lt;b&gt;geese&lt;/b&gt;'])
    expect(section).not.toContain('<img src=x')
    for (const [fields, status, words] of [
      [{ intent: 'remove', id: '999999' }, 404, 'That photo is no longer on the page.'],
      [{ intent: 'remove', id: '1 OR 1=1' }, 400, 'That change is not one this page knows.'],
      [{ intent: 'describe', id: '-1', alt: 'x' }, 404, 'That photo is no longer on the page.'],
      [{ intent: 'drop table', id: '1' }, 400, 'That change is not one this page knows.'],
    ] as const) {
      const answer = await postPhotoForm(server, cookie, fields)
      expect({ fields, status: answer.status, words: await problemOf(answer) }).toEqual({ fields, status, words })
    }
  })

  it('is refused to other sites’ pages and to other methods', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    const crossSite = await rawRequest(server.url, {
      path: photosPage,
      headers: { Cookie: cookie, Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'intent=remove&id=1',
    })
    expect(crossSite.status).toBe(403)
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const answer = await rawRequest(server.url, { method, path: photosPage, headers: { Cookie: cookie } })
      expect({ method, status: answer.status }).toEqual({ method, status: 405 })
    }
  })
})

describe('the photos’ files, attacked', () => {
  it('serve only a photo’s file by its exact name, and nothing of the disk', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    expect((await uploadPhoto(server, cookie, await smallJpeg(40), { alt: 'Geese' })).status).toBe(204)
    const { section } = await homePhotos(server)
    const name = /\/photos\/([A-Za-z0-9_-]{22})\.avif/.exec(section)![1]!
    expect((await fetch(`${server.url}/photos/${name}.avif`)).status).toBe(200)
    for (const path of [
      `/photos/${name}.webp`,
      `/photos/${name}.AVIF`,
      `/photos/${name}.svg`,
      `/photos/${name}`,
      `/photos/${name}.avif.html`,
      '/photos/../package.json',
      '/photos/%2e%2e%2fpackage.json',
      '/photos/..%2f..%2fdata%2ffarm.db',
      `/photos/${'A'.repeat(5000)}.jpg`,
      "/photos/x'%20OR%20'1'='1.jpg",
    ]) {
      const answer = await rawRequest(server.url, { method: 'GET', path })
      expect({ path, status: answer.status, image: /^image\//.test(String(answer.headers['content-type'])) }).toEqual({
        path,
        status: 404,
        image: false,
      })
    }
    const head = await rawRequest(server.url, { method: 'HEAD', path: `/photos/${name}.avif` })
    expect({
      status: head.status,
      type: head.headers['content-type'],
      nosniff: head.headers['x-content-type-options'],
    }).toEqual({
      status: 200,
      type: 'image/avif',
      nosniff: 'nosniff',
    })
  })
})
