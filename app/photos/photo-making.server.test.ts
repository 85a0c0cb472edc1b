import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createPhotoMaker, widthsFor } from './photo-making.server'
import { photoWords, sharedPhoto } from './photo-words'
import { altText } from './photos.server'

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
    const made = await createPhotoMaker().make(await photo(800, 600))
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

  it('makes one photo at a time and turns away more than are let wait', async () => {
    const maker = createPhotoMaker({ atOnce: 1, waiting: 1 })
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
