import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { jpegEnd, kindOf, pngLayout, polyglotProblem, webpAnimated } from './photo-checks'

const image = (format: 'jpeg' | 'png' | 'webp') =>
  sharp({ create: { width: 32, height: 24, channels: 3, background: '#4a7' } })
    .toFormat(format)
    .toBuffer()
const join = (...parts: Array<Buffer | string>) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part)))

describe('what a file is, by its own first bytes', () => {
  it('knows the photos it takes and what it refuses, whatever the name', async () => {
    expect(kindOf(await image('jpeg'))).toBe('jpeg')
    expect(kindOf(await image('png'))).toBe('png')
    expect(kindOf(await image('webp'))).toBe('webp')
    expect(kindOf(join(Buffer.from([0, 0, 0, 28]), 'ftypavif', Buffer.alloc(20)))).toBe('heif')
    expect(kindOf(join(Buffer.from([0, 0, 0, 28]), 'ftypheic', Buffer.alloc(20)))).toBe('heif')
    expect(kindOf(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBe('gif')
    expect(kindOf(Buffer.from('Eggs: 12 for €4'))).toBe('unknown')
    expect(kindOf(Buffer.alloc(0))).toBe('unknown')
  })

  it('finds an SVG behind a byte-order mark, an XML declaration, comments or a doctype, in any case', () => {
    for (const svg of [
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      '\uFEFF  <?xml version="1.0"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg>\n<SVG width="1">',
      '<?xml version="1.0" encoding="UTF-8"?><svg>',
    ]) {
      expect(kindOf(Buffer.from(svg)), svg).toBe('svg')
    }
    expect(kindOf(Buffer.from('<svgs>'))).toBe('unknown')
  })
})

describe('where a picture ends', () => {
  it('walks a JPEG to its EOI, past segments whose data holds 0xFFD9', async () => {
    const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#4a7' } })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: 'ends \xff\xd9 here?' } })
      .toBuffer()
    expect(jpegEnd(jpeg)).toBe(jpeg.length)
    expect(jpegEnd(join(jpeg, 'after'))).toBe(jpeg.length)
    expect(jpegEnd(jpeg.subarray(0, jpeg.length - 2))).toBeNull()
  })

  it('walks a PNG to IEND, and sees an APNG’s animation control', async () => {
    const png = await image('png')
    expect(pngLayout(png)).toEqual({ end: png.length, animated: false })
    const withActl = join(png.subarray(0, 33), Buffer.from([0, 0, 0, 8]), 'acTL', Buffer.alloc(12), png.subarray(33))
    expect(pngLayout(withActl)?.animated).toBe(true)
  })

  it('reads a WebP’s animation flag', async () => {
    expect(webpAnimated(await image('webp'))).toBe(false)
    const frame = (background: string) =>
      sharp({ create: { width: 8, height: 8, channels: 3, background } })
        .raw()
        .toBuffer()
    const frames = Buffer.concat([await frame('#4a7'), await frame('#a47')])
    const moving = await sharp(frames, {
      raw: { width: 8, height: 16, channels: 3, pageHeight: 8 },
    })
      .webp({ loop: 0 })
      .toBuffer()
    expect(webpAnimated(moving)).toBe(true)
  })
})

describe('a picture that is also something else', () => {
  it('is found when a page, a script, an archive or a PDF rides in it or after it', async () => {
    const jpeg = await image('jpeg')
    const png = await image('png')
    const webp = await image('webp')
    const zipEnd = join('PK\x05\x06', Buffer.alloc(16), Buffer.from([0, 0]))
    expect(await polyglotProblem(join(jpeg, '<script>alert(1)</script>'), 'jpeg')).toBe(
      'something else is stored after the picture',
    )
    expect(await polyglotProblem(join(png, 'PK\x03\x04 a jar'), 'png')).toBe(
      'something else is stored after the picture',
    )
    expect(await polyglotProblem(join(webp, '<html>'), 'webp')).toBe('something else is stored after the picture')
    // Inside the picture's own segments (a JPEG comment), where the end's walk cannot see it.
    const comment = join(jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe, 0, 20]), '<ScRiPt src=//x.y>', jpeg.subarray(2))
    expect(await polyglotProblem(comment, 'jpeg')).toBe('it holds a web page or a script')
    expect(
      await polyglotProblem(
        join(jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe, 0, 24]), zipEnd, jpeg.subarray(2)),
        'jpeg',
      ),
    ).toBeNull()
    expect(await polyglotProblem(join(jpeg, zipEnd), 'jpeg')).toBe('something else is stored after the picture')
    expect(
      await polyglotProblem(
        join(jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe, 0, 9]), '%PDF-1.7', jpeg.subarray(2)),
        'jpeg',
      ),
    ).toBe('it is also a PDF')
  })

  it('is not found in the three bytes a photo’s compressed data holds by chance', async () => {
    const jpeg = await image('jpeg')
    const chance = join(jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe, 0, 10]), '<% x<%=y', jpeg.subarray(2))
    expect(await polyglotProblem(chance, 'jpeg')).toBeNull()
  })

  it('is not found in what phones write after a photo: a second JPEG, a motion photo’s video, padding', async () => {
    const jpeg = await image('jpeg')
    expect(await polyglotProblem(jpeg, 'jpeg')).toBeNull()
    expect(await polyglotProblem(join(jpeg, jpeg), 'jpeg')).toBeNull()
    expect(
      await polyglotProblem(join(jpeg, Buffer.from([0, 0, 0, 24]), 'ftypmp42', Buffer.alloc(40)), 'jpeg'),
    ).toBeNull()
    expect(await polyglotProblem(join(jpeg, Buffer.alloc(64)), 'jpeg')).toBeNull()
    expect(await polyglotProblem(await image('png'), 'png')).toBeNull()
  })
})
