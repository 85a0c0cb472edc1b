import { createHash } from 'node:crypto'
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import vnuJar from 'vnu-jar'
import { describe, expect, it } from 'vitest'
import { photoWords } from '#app/photos/photo-words'
import { ownerPassword } from '#tests/support/owner'
import {
  animated,
  exifHasGps,
  heicFrom,
  homePhotos,
  jpegWithGps,
  pngBomb,
  polyglotJpeg,
  postPhotoForm,
  smallJpeg,
  svgDrawing,
  uploadPhoto,
} from '#tests/support/photos'
import { rawRequest } from '#tests/support/raw-request'
import { projectRoot } from '#tests/support/server'
import { serverPerFile, serverPerTest } from '#tests/support/server-per-test'
import { addPerson, signInAs } from '#tests/support/team'

const withOwner = { env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback' } }
const problemOf = async (answer: Response) => ((await answer.json()) as { problem: { error: string } }).problem.error

describe('a photo as the home page serves it', () => {
  const serve = serverPerFile()

  it('comes out in AVIF, WebP and JPEG at its widths, without the GPS position or the camera, under names of its bytes’ hash, cached for a year', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    const original = await jpegWithGps()
    expect((await sharp(original).metadata()).exif).toBeDefined()
    expect(original.includes('Orchardcam')).toBe(true)

    const answer = await uploadPhoto(server, cookie, original, { alt: 'Hens under the apple trees' })
    expect(answer.status).toBe(204)
    expect(answer.headers.get('X-Remix-Redirect')).toBe('/farm-sales/page/photos?done=added')

    const { section, alts } = await homePhotos(server)
    expect(alts).toEqual(['Hens under the apple trees'])
    expect(section).toContain('width="1200" height="900"')
    expect(section).toContain('loading="lazy"')
    const urls = [...section.matchAll(/\/photos\/[A-Za-z0-9_-]+\.(?:avif|webp|jpg) (\d+)w/g)].map((m) => m[0])
    expect(urls.map((url) => url.replace(/^\/photos\/[^.]+/, ''))).toEqual([
      '.avif 480w',
      '.avif 960w',
      '.avif 1200w',
      '.webp 480w',
      '.webp 960w',
      '.webp 1200w',
      '.jpg 480w',
      '.jpg 960w',
      '.jpg 1200w',
    ])
    for (const url of urls) {
      const [path, width] = url.split(' ')
      const file = await fetch(`${server.url}${path}`)
      expect(file.status).toBe(200)
      expect(file.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
      const bytes = Buffer.from(await file.arrayBuffer())
      expect(path).toBe(
        `/photos/${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}${path!.slice(path!.indexOf('.'))}`,
      )
      const metadata = await sharp(bytes).metadata()
      expect({ path, width: metadata.width, exif: metadata.exif, profile: metadata.hasProfile }).toEqual({
        path,
        width: Number(width!.slice(0, -1)),
        exif: undefined,
        profile: false,
      })
      expect(file.headers.get('Content-Type')).toBe(
        { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' }[path!.split('.')[1]!],
      )
      expect(bytes.includes('Orchardcam')).toBe(false)
      expect(bytes.includes('Pocket 7')).toBe(false)
    }
    // Asked again as a browser does (fetch() would add Cache-Control: no-cache), it is not sent again.
    const again = await rawRequest(server.url, {
      method: 'GET',
      path: urls[0]!.split(' ')[0]!,
      headers: { 'If-None-Match': `"${urls[0]!.slice(8, 30)}"` },
    })
    expect(again.status).toBe(304)
  })

  it('loads libvips with the first photo: a site that has taken none does not hold it', async () => {
    const server = await serve(withOwner)
    const libvipsMapped = () => readFileSync(`/proc/${server.child.pid}/maps`, 'utf8').includes('libvips')
    const cookie = await signInAs(server.url, '', ownerPassword)
    expect((await fetch(`${server.url}/`)).status).toBe(200)
    expect(libvipsMapped()).toBe(false)

    expect((await uploadPhoto(server, cookie, await smallJpeg(), { alt: 'The gate' })).status).toBe(204)
    expect(libvipsMapped()).toBe(true)
    expect((await homePhotos(server)).alts).toContain('The gate')
  })

  it('is taken as a HEIC from an iPhone, with JavaScript on and off, and comes out the same: its size, no GPS position, no camera', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    for (const [seed, javaScript] of [
      [11, true],
      [12, false],
    ] as const) {
      const heic = await heicFrom(await jpegWithGps(seed))
      // As the phone sent it: HEVC, with the camera and where it was taken in its EXIF.
      const sent = await sharp(heic).metadata()
      expect({ compression: sent.compression, gps: exifHasGps(sent.exif) }).toEqual({ compression: 'hevc', gps: true })
      expect(heic.includes('Orchardcam')).toBe(true)
      const alt = `Geese by the pond, ${javaScript ? 'with' : 'without'} JavaScript`
      const answer = await uploadPhoto(server, cookie, heic, {
        alt,
        name: 'IMG_0042.HEIC',
        type: 'image/heic',
        javaScript,
      })
      expect({ status: answer.status, to: answer.headers.get(javaScript ? 'X-Remix-Redirect' : 'Location') }).toEqual({
        status: javaScript ? 204 : 303,
        to: '/farm-sales/page/photos?done=added',
      })

      const { section } = await homePhotos(server)
      const picture = [...section.matchAll(/<picture>[\s\S]*?<\/picture>/g)]
        .map((m) => m[0])
        .find((p) => p.includes(alt))!
      expect(picture).toContain('width="1200" height="900"')
      const urls = [...picture.matchAll(/(\/photos\/[A-Za-z0-9_-]+\.(?:avif|webp|jpg)) (\d+)w/g)]
      expect(urls.map(([, path, width]) => `${path!.split('.')[1]} ${width}`)).toEqual([
        'avif 480',
        'avif 960',
        'avif 1200',
        'webp 480',
        'webp 960',
        'webp 1200',
        'jpg 480',
        'jpg 960',
        'jpg 1200',
      ])
      for (const [, path, width] of urls) {
        const bytes = Buffer.from(await (await fetch(`${server.url}${path}`)).arrayBuffer())
        const metadata = await sharp(bytes).metadata()
        expect({ path, width: metadata.width, height: metadata.height, exif: metadata.exif }).toEqual({
          path,
          width: Number(width),
          height: (Number(width) * 3) / 4,
          exif: undefined,
        })
        expect({ path, camera: bytes.includes('Orchardcam') || bytes.includes('Pocket 7') }).toEqual({
          path,
          camera: false,
        })
      }
    }
  })

  it('is refused with the words when it is not a still photo of 50 megapixels or less, and nothing is added', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    const before = (await homePhotos(server)).alts
    const refusals: Array<[string, Buffer, string, string]> = [
      ['a 20,000 × 20,000 PNG', pngBomb(), 'farm.png', photoWords.tooManyPixels(20_000, 20_000)],
      [
        'a polyglot',
        await polyglotJpeg(),
        'hens.jpg',
        photoWords.polyglot('something else is stored after the picture'),
      ],
      ['an SVG', svgDrawing, 'logo.svg', photoWords.svg],
      [
        'a text file renamed .jpg',
        Buffer.from('Eggs: 12 for €4\nHoney: €6 a jar\n'),
        'prices.jpg',
        photoWords.notAPhoto,
      ],
      ['an animated GIF', await animated('gif'), 'hens.gif', photoWords.animated],
      ['an animated WebP', await animated('webp'), 'hens.webp', photoWords.animated],
    ]
    for (const [what, bytes, name, words] of refusals) {
      const answer = await uploadPhoto(server, cookie, bytes, { name })
      expect({ what, status: answer.status, words: await problemOf(answer) }).toEqual({ what, status: 400, words })
    }
    expect((await homePhotos(server)).alts).toEqual(before)
  })

  it('needs its alt text, and says so on the page without JavaScript', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    const answer = await uploadPhoto(server, cookie, await smallJpeg(3), { alt: '   ', javaScript: false })
    expect(answer.status).toBe(400)
    expect(await answer.text()).toContain(`Not added: ${photoWords.altMissing}`)
  })
})

/** What the Nu HTML Checker finds wrong in these pages' HTML (their CSS aside, as mail-quality's check does). */
function htmlErrors(pages: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'vnu-photos-'))
  const files = Object.entries(pages).map(([name, html]) => {
    const file = join(dir, `${name}.html`)
    writeFileSync(file, html)
    return file
  })
  const run = spawnSync(
    'java',
    ['-jar', String(vnuJar), '--errors-only', '--filterpattern', 'CSS: .*', '--format', 'json', ...files],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  )
  const report = JSON.parse(run.stderr || run.stdout) as { messages: Array<{ url: string; message: string }> }
  return report.messages.map(({ url, message }) => `${url.slice(url.lastIndexOf('/') + 1)}: ${message}`)
}

describe('the owner’s photos', () => {
  const serve = serverPerTest()

  it('are ordered and removed, each change in the activity log, and at most 12', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    for (let n = 1; n <= 12; n++) {
      const answer = await uploadPhoto(server, cookie, await smallJpeg(n), { alt: `Photo ${n}` })
      expect(answer.status, `photo ${n}`).toBe(204)
    }
    const thirteenth = await uploadPhoto(server, cookie, await smallJpeg(13), { alt: 'One too many' })
    expect(thirteenth.status).toBe(409)
    expect(await problemOf(thirteenth)).toBe(photoWords.full)
    const ids = [
      ...(await (await fetch(`${server.url}/farm-sales/page/photos`, { headers: { Cookie: cookie } })).text()).matchAll(
        /name="id" value="(\d+)"/g,
      ),
    ].map((m) => m[1]!)
    expect(ids).toHaveLength(12)
    expect((await postPhotoForm(server, cookie, { intent: 'later', id: ids[0]! })).status).toBe(204)
    expect((await postPhotoForm(server, cookie, { intent: 'remove', id: ids[2]! })).status).toBe(204)
    expect(
      (await postPhotoForm(server, cookie, { intent: 'describe', id: ids[1]!, alt: 'Photo two, at dawn' })).status,
    ).toBe(204)
    expect((await homePhotos(server)).alts).toEqual([
      'Photo two, at dawn',
      'Photo 1',
      ...Array.from({ length: 9 }, (_, n) => `Photo ${n + 4}`),
    ])
    const activity = await (await fetch(`${server.url}/farm-sales/activity`, { headers: { Cookie: cookie } })).text()
    expect(activity).toContain('Removed a photo: “Photo 3”')
    expect(activity).toContain('Moved photo 1 to place 2')
    expect(activity).toContain('Described a photo: “Photo two, at dawn”')
    expect(activity).toContain('Added a photo: “Photo 12”')
  })

  it('leave the home page and the photos page clean in the Nu HTML Checker', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    expect((await uploadPhoto(server, cookie, await smallJpeg(5), { alt: 'Geese by the pond' })).status).toBe(204)
    const refused = await uploadPhoto(server, cookie, svgDrawing, { name: 'logo.svg', javaScript: false })
    expect(refused.status).toBe(400)
    const pages = {
      home: (await homePhotos(server)).html,
      photos: await (
        await fetch(`${server.url}/farm-sales/page/photos?done=added`, { headers: { Cookie: cookie } })
      ).text(),
      refused: await refused.text(),
    }
    expect(htmlErrors(pages)).toEqual([])
  })

  it('are for owners only, and refused while the site is unclaimed with the words to claim it', async () => {
    const open = await serve()
    const refusedOpen = await uploadPhoto(open, '', await smallJpeg(1))
    expect(refusedOpen.status).toBe(403)
    expect(((await refusedOpen.json()) as { error: string }).error).toMatch(
      /^To add or change the farm’s photos, claim the site first/,
    )
    const page = await (await fetch(`${open.url}/farm-sales/page/photos`)).text()
    expect(page).toContain('claim the site first')

    const server = await serve(withOwner)
    const owner = await signInAs(server.url, '', ownerPassword)
    const helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
    const refused = await uploadPhoto(server, helper, await smallJpeg(1))
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: string }).error).toBe(
      'Only an owner may change the farm’s photos; you are signed in as a helper.',
    )
    const stranger = await uploadPhoto(server, '', await smallJpeg(1))
    expect(stranger.headers.get('X-Remix-Redirect')).toBe('/sign-in?redirectTo=%2Ffarm-sales%2Fpage%2Fphotos')
    expect((await homePhotos(server)).alts).toEqual([])
  })

  it('are in the backup, and back with the restore', async () => {
    const server = await serve(withOwner)
    const cookie = await signInAs(server.url, '', ownerPassword)
    expect((await uploadPhoto(server, cookie, await jpegWithGps(4), { alt: 'The farm shop in May' })).status).toBe(204)
    const { section } = await homePhotos(server)
    const served = /\/photos\/[A-Za-z0-9_-]+\.avif/.exec(section)![0]
    const bytes = Buffer.from(await (await fetch(`${server.url}${served}`)).arrayBuffer())
    const run = promisify(execFile)
    const env = { ...process.env, DATABASE_PATH: server.databasePath }
    await run('npm', ['run', '--silent', 'backup'], { cwd: projectRoot, env })
    const backups = join(dirname(server.databasePath), 'backups')
    // The newest: the site took one of its own at start.
    const backup = readdirSync(backups)
      .filter((name) => name.endsWith('.db'))
      .sort()
      .at(-1)
    const id = /name="id" value="(\d+)"/.exec(
      await (await fetch(`${server.url}/farm-sales/page/photos`, { headers: { Cookie: cookie } })).text(),
    )![1]!
    expect((await postPhotoForm(server, cookie, { intent: 'remove', id })).status).toBe(204)
    expect((await fetch(`${server.url}${served}`)).status).toBe(404)
    await server.stop()

    await run('npm', ['run', '--silent', 'restore', '--', join(backups, backup!), '--yes'], { cwd: projectRoot, env })
    const restored = await serve({ ...withOwner, databasePath: server.databasePath })
    expect((await homePhotos(restored)).alts).toEqual(['The farm shop in May'])
    const again = await fetch(`${restored.url}${served}`)
    expect(again.status).toBe(200)
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true)
  })
})
