/** What the page takes, said once for the server's checks and the upload form's hints. */
export const photoLimits = {
  /** Photos on the page at most. */
  count: 12,
  bytes: 15 * 1024 * 1024,
  /** 50 megapixels: a header may promise far more pixels than its file's size (a decompression bomb). */
  pixels: 50_000_000,
  /**
   * 24 megapixels for a HEIC (an iPhone's 'HEIF Max' is 24 or 48): its decoder (WebAssembly)
   * holds about 6 bytes a pixel, outside the worker's heap limit, beside the site in a 512 MB container.
   */
  heicPixels: 24_000_000,
  altLength: 250,
} as const

export const photoFormats = ['avif', 'webp', 'jpeg'] as const
export type PhotoFormat = (typeof photoFormats)[number]

/** One photo as a page shows it: its words, its shape, and its files by format, narrowest first. */
export interface ShownPhoto {
  id: number
  alt: string
  width: number
  height: number
  sources: Record<PhotoFormat, Array<{ url: string; width: number }>>
}

/** The photo a shared link shows (OpenGraph, Twitter, JSON-LD's image): the first, as its largest JPEG. */
export function sharedPhoto(photos: ShownPhoto[]): { url: string; width: number; height: number; alt: string } | null {
  const first = photos[0]
  const jpeg = first?.sources.jpeg.at(-1)
  if (!first || !jpeg) return null
  return {
    url: jpeg.url,
    width: jpeg.width,
    height: Math.round((first.height * jpeg.width) / first.width),
    alt: first.alt,
  }
}

const send = 'Send a photo as JPEG, PNG, WebP, HEIC or AVIF.'

/** The upload's refusals, in the owner's words: what is wrong and what to do. */
export const photoWords = {
  none: `Choose a photo to add. ${send}`,
  notAPhoto: `This file is not a photo. ${send}`,
  tooLarge: 'This photo is larger than 15 MB. Send a smaller copy (a phone’s “large” or “medium” size is plenty).',
  tooManyPixels: (width: number, height: number) =>
    `This photo is ${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels, more than 50 megapixels. Send a smaller copy.`,
  tooManyHeicPixels: (width: number, height: number) =>
    `This HEIC photo is ${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels, more than the 24 megapixels the site reads in HEIC. Share it as JPEG, or take photos at 24 MP or less.`,
  animated:
    'This picture moves (an animated GIF, WebP or PNG, or a HEIC or AVIF sequence). Only still photos are shown on the page.',
  svg: `SVG drawings are not taken: they can carry scripts. ${send}`,
  gif: `GIF pictures are not taken. ${send}`,
  polyglot: (what: string) =>
    `This file is a photo with something else hidden in it (${what}), so it is not taken. Save the photo again as JPEG or PNG and send that.`,
  unreadable: `This photo could not be read: the file may be damaged or cut short. ${send}`,
  busy: 'Other photos are being prepared right now. Try again in a minute.',
  altMissing: 'Describe the photo in a few words for whoever cannot see it (its alt text).',
  altTooLong: `Keep the description under ${photoLimits.altLength} characters.`,
  again: 'This photo is already on the page.',
  full: `The page already has ${photoLimits.count} photos. Remove one before adding another.`,
} as const

/** What the page says after each change (`?done=`). */
export const doneWords: Record<string, string> = {
  added: 'The photo is on the home page.',
  described: 'The description is saved.',
  moved: 'The photos are in their new order.',
  removed: 'The photo is no longer on the home page.',
}
