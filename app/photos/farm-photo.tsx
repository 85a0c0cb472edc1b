import type { PhotoFormat, ShownPhoto } from './photo-words'

const srcSet = (photo: ShownPhoto, format: PhotoFormat) =>
  photo.sources[format].map((source) => `${source.url} ${source.width}w`).join(', ')

/**
 * One photo: AVIF where the browser reads it, else WebP, else JPEG, each at the width `sizes`
 * asks for; its width and height hold its place before it loads, so nothing below it jumps.
 */
export function FarmPhoto({
  photo,
  sizes,
  lazy,
  className,
}: {
  photo: ShownPhoto
  sizes: string
  /** Below the fold: loaded only as it comes near the screen. */
  lazy: boolean
  className?: string
}) {
  const jpegs = photo.sources.jpeg
  const fallback = jpegs.find((source) => source.width >= 960) ?? jpegs.at(-1)
  return (
    <picture>
      <source type="image/avif" srcSet={srcSet(photo, 'avif')} sizes={sizes} />
      <source type="image/webp" srcSet={srcSet(photo, 'webp')} sizes={sizes} />
      <img
        src={fallback?.url}
        srcSet={srcSet(photo, 'jpeg')}
        sizes={sizes}
        width={photo.width}
        height={photo.height}
        alt={photo.alt}
        loading={lazy ? 'lazy' : 'eager'}
        decoding="async"
        className={className}
      />
    </picture>
  )
}
