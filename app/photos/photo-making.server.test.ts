import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createPhotoMaker, widthsFor } from './photo-making.server'
import { photoWords, sharedPhoto } from './photo-words'
import { altText } from './photos.server'
import { heicFrom, jpegWithGps } from '#tests/support/photos'

const heicWorkerUrl = new URL('./heic-worker.mjs', import.meta.url)

describe('the widths a photo is made at', () => {
  it('are the three it reaches, with its own when narrower than the largest', () => {
    expect(widthsFor(4000)).toEqual([480, 960, 1600])
    expect(widthsFor(1600)).toEqual([480, 960, 1600])
    expect(widthsFor(1200)).toEqual([480, 960, 1200])
    expect(widthsFor(960)).toEqual([480, 960])
    expect(widthsFor(300)).toEqual([300])
  })
})

describe('the photo maker', () => {
  const photo = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#7a4' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Orchardcam' } })
      .withMetadata({ orientation: 6 })
      .toBuffer()

  it('turns a photo upright as its camera said, and keeps nothing the camera wrote', async () => {
    const made = await createPhotoMaker({ heicWorkerUrl }).make(await photo(800, 600))
    expect(made.ok).toBe(true)
    if (!made.ok) return
    // Orientation 6: the camera was turned; upright, the photo is taller than wide.
    expect({ width: made.width, height: made.height }).toEqual({ width: 600, height: 800 })
    expect(made.files.map((file) => `${file.format} ${file.width}×${file.height}`)).toEqual([
      'avif 480×640',
      'webp 480×640',
      'jpeg 480×640',
      'avif 600×800',
      'webp 600×800',
      'jpeg 600×800',
    ])
    for (const file of made.files) expect((await sharp(file.bytes).metadata()).exif).toBeUndefined()
  })

  it('decodes a HEIC (HEVC, which sharp’s libvips cannot) in its worker, and keeps nothing the camera wrote', async () => {
    const heic = await heicFrom(await jpegWithGps())
    expect((await sharp(heic).metadata()).compression).toBe('hevc')
    expect(heic.includes('Orchardcam')).toBe(true)
    const made = await createPhotoMaker({ heicWorkerUrl }).make(heic)
    expect(made.ok).toBe(true)
    if (!made.ok) return
    expect({ width: made.width, height: made.height }).toEqual({ width: 1200, height: 900 })
    expect(made.files.map((file) => `${file.format} ${file.width}×${file.height}`)).toEqual([
      'avif 480×360',
      'webp 480×360',
      'jpeg 480×360',
      'avif 960×720',
      'webp 960×720',
      'jpeg 960×720',
      'avif 1200×900',
      'webp 1200×900',
      'jpeg 1200×900',
    ])
    for (const file of made.files) {
      const metadata = await sharp(file.bytes).metadata()
      expect({ exif: metadata.exif, channels: metadata.channels }).toEqual({ exif: undefined, channels: 3 })
      expect(file.bytes.includes('Orchardcam')).toBe(false)
    }
    // Its colours are the photo's: the JPEG's top left corner is black-green, its bottom right yellow.
    const jpeg = made.files.at(-1)!.bytes
    const corner = async (left: number, top: number) => [
      ...(await sharp(jpeg).extract({ left, top, width: 1, height: 1 }).raw().toBuffer()),
    ]
    const near = (pixel: number[], expected: number[]) => pixel.every((value, i) => Math.abs(value - expected[i]!) < 16)
    expect(near(await corner(4, 4), [0, 0, 37])).toBe(true)
    expect(near(await corner(1195, 895), [254, 254, 37])).toBe(true)
  })

  it('refuses as unreadable a HEIC cut short, and one whose header reads but whose picture does not decode', async () => {
    const heic = await heicFrom(await jpegWithGps(2))
    const maker = createPhotoMaker({ heicWorkerUrl })
    const cut = heic.subarray(0, heic.length - 2000)
    // The picture's first bytes zeroed: the header (read by sharp) is whole, the HEVC stream is not.
    const damaged = Buffer.from(heic)
    damaged.fill(0, heic.indexOf('mdat') + 8, heic.indexOf('mdat') + 400)
    expect((await sharp(damaged).metadata()).width).toBe(1200)
    for (const [what, bytes] of [
      ['cut short', cut],
      ['damaged', damaged],
    ] as const) {
      expect({ what, made: await maker.make(bytes) }).toMatchObject({
        what,
        made: { ok: false, error: photoWords.unreadable },
      })
    }
  })

  it('refuses, before decoding it, a HEIC whose header says more than 24 megapixels (its decoder’s memory)', async () => {
    const heic = await heicFrom(await jpegWithGps(3))
    // Its image's size box (ispe: version and flags, then width and height) made to say 6000 × 4500.
    const box = heic.indexOf('ispe')
    const large = Buffer.from(heic)
    large.writeUInt32BE(6000, box + 8)
    large.writeUInt32BE(4500, box + 12)
    expect(await sharp(large).metadata()).toMatchObject({ width: 6000, height: 4500, compression: 'hevc' })
    expect(await createPhotoMaker({ heicWorkerUrl }).make(large)).toMatchObject({
      ok: false,
      error: photoWords.tooManyHeicPixels(6000, 4500),
    })
    expect(photoWords.tooManyHeicPixels(6000, 4500)).toBe(
      'This HEIC photo is 6,000 × 4,500 pixels, more than the 24 megapixels the site reads in HEIC. Share it as JPEG, or take photos at 24 MP or less.',
    )
  })

  it('makes one photo at a time and turns away more than are let wait', async () => {
    const maker = createPhotoMaker({ heicWorkerUrl, atOnce: 1, waiting: 1 })
    const big = await photo(2400, 1800)
    const answers = await Promise.all([maker.make(big), maker.make(big), maker.make(big)])
    expect(answers.map((answer) => (answer.ok ? 'made' : answer.error))).toEqual(['made', 'made', photoWords.busy])
  })
})

describe('the alt text', () => {
  it('is one trimmed line, required, and not too long', () => {
    expect(altText('  Hens\nin the\u0000orchard  ')).toEqual({ ok: true, alt: 'Hens in the orchard' })
    expect(altText(' \n\t ')).toMatchObject({ ok: false, error: photoWords.altMissing, field: 'alt' })
    expect(altText('a'.repeat(251))).toMatchObject({ ok: false, error: photoWords.altTooLong })
  })
})

describe('the photo a shared link shows', () => {
  it('is the first photo’s largest JPEG, or none', () => {
    const photo = (id: number, alt: string) => ({
      id,
      alt,
      width: 1200,
      height: 900,
      sources: {
        avif: [{ url: `/photos/${id}-960.avif`, width: 960 }],
        webp: [{ url: `/photos/${id}-960.webp`, width: 960 }],
        jpeg: [
          { url: `/photos/${id}-480.jpg`, width: 480 },
          { url: `/photos/${id}-1200.jpg`, width: 1200 },
        ],
      },
    })
    expect(sharedPhoto([photo(1, 'The barn'), photo(2, 'Hens')])).toEqual({
      url: '/photos/1-1200.jpg',
      width: 1200,
      height: 900,
      alt: 'The barn',
    })
    expect(sharedPhoto([])).toBeNull()
  })
})
