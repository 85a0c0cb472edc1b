import type { RequestHandler } from 'express'
import type { Photos } from './photos.server'
import type { PhotoFormat } from './photo-words'

const mediaTypes: Record<PhotoFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' }
/** A name as the photo maker gives them: its bytes' hash and its format's extension. */
const nameShape = /^([A-Za-z0-9_-]{22})\.(?:avif|webp|jpg)$/

/**
 * A photo's file by its name. The name is its bytes' hash, so what a name serves never
 * changes: browsers and proxies keep it a year without asking again.
 */
export function servePhotos(photos: Pick<Photos, 'file'>): RequestHandler {
  return (req, res) => {
    const hash = nameShape.exec(String(req.params.name))?.[1]
    const file = hash ? photos.file(String(req.params.name)) : null
    if (!file) return void res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('No such photo.')
    res.set({
      'Content-Type': mediaTypes[file.format],
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: `"${hash}"`,
    })
    res.send(file.bytes)
  }
}
