import { asc, count, eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { photoFiles, photos } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { refuse, type Answer, type Refusal } from '#app/http/refusal.server'
import type { ActivityLog } from '#app/team/activity.server'
import type { PhotoMaker } from './photo-making.server'
import { photoFormats, photoLimits, photoWords, type PhotoFormat, type ShownPhoto } from './photo-words'

/** Where the page's photo files are served, by name. */
export const photoPath = '/photos/'

/** Who changed the photos, for the activity log. */
export interface By {
  memberId: number | null
  address: string
}

/** The alt text as kept: one line, trimmed, no control characters; or why it is refused. */
export function altText(written: string): Answer<{ alt: string }> {
  const alt = written.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim()
  if (alt === '') return refuse(400, photoWords.altMissing, 'alt')
  if (alt.length > photoLimits.altLength) return refuse(400, photoWords.altTooLong, 'alt')
  return { ok: true, alt }
}

const quoted = (alt: string) => `“${alt.length > 60 ? `${alt.slice(0, 60)}…` : alt}”`

/**
 * The farm's photos: added through the photo maker, described, ordered and removed by owners,
 * each change in the activity log; their files served by name. What the pages show is read
 * once per change.
 */
export function createPhotos({
  db,
  writes,
  maker,
  activity,
  now = Date.now,
}: {
  db: FarmDatabase
  writes: Writes
  maker: PhotoMaker
  activity: Pick<ActivityLog, 'recordIn'>
  now?: () => number
}) {
  let shown: ShownPhoto[] | null = null

  function read(): ShownPhoto[] {
    const rows = db.select().from(photos).orderBy(asc(photos.position)).all()
    const files = db
      .select({
        photoId: photoFiles.photoId,
        name: photoFiles.name,
        format: photoFiles.format,
        width: photoFiles.width,
      })
      .from(photoFiles)
      .orderBy(asc(photoFiles.width))
      .all()
    return rows.map((row) => {
      const mine = files.filter((file) => file.photoId === row.id)
      const sources = Object.fromEntries(
        photoFormats.map((format) => [
          format,
          mine
            .filter((file) => file.format === format)
            .map((file) => ({ url: `${photoPath}${file.name}`, width: file.width })),
        ]),
      ) as ShownPhoto['sources']
      return { id: row.id, alt: row.alt, width: row.width, height: row.height, sources }
    })
  }

  /** A change and its line in the activity log, in one transaction; what the pages show is read again after. */
  async function change(
    by: By,
    detail: string,
    kind: 'photo-added' | 'photo-changed' | 'photo-removed',
    deed: (tx: FarmDatabase) => void,
  ) {
    await writes.whenFree(() =>
      db.transaction((tx) => {
        deed(tx as unknown as FarmDatabase)
        activity.recordIn(tx, { kind, by: by.memberId, detail, address: by.address })
      }),
    )
    shown = null
  }

  /** Puts the photos in this order, numbered from 0. */
  function renumber(tx: FarmDatabase, ids: number[]) {
    ids.forEach((id, position) => tx.update(photos).set({ position }).where(eq(photos.id, id)).run())
  }

  const idsInOrder = (tx: FarmDatabase) =>
    tx
      .select({ id: photos.id })
      .from(photos)
      .orderBy(asc(photos.position))
      .all()
      .map((row) => row.id)

  const isFull = () => (db.select({ n: count() }).from(photos).get()?.n ?? 0) >= photoLimits.count

  return {
    /** The photos in the owner's order. */
    shown(): ShownPhoto[] {
      shown ??= read()
      return shown
    },

    /** A photo's file by its name, or null. */
    file(name: string): { format: PhotoFormat; bytes: Buffer } | null {
      return (
        db
          .select({ format: photoFiles.format, bytes: photoFiles.bytes })
          .from(photoFiles)
          .where(eq(photoFiles.name, name))
          .get() ?? null
      )
    },

    /** Adds a photo at the end, once its files are made; refused in words when it cannot be. */
    async add(bytes: Uint8Array, written: string, by: By): Promise<Answer<{ id: number }>> {
      const described = altText(written)
      if (!described.ok) return described
      if (isFull()) return refuse(409, photoWords.full, 'photo')
      const made = await maker.make(bytes)
      if (!made.ok) return made
      let id = 0
      try {
        await change(by, `Added a photo: ${quoted(described.alt)}`, 'photo-added', (tx) => {
          // Counted again in the transaction: two uploads at once cannot make thirteen.
          if ((tx.select({ n: count() }).from(photos).get()?.n ?? 0) >= photoLimits.count) {
            throw new Refused(refuse(409, photoWords.full, 'photo'))
          }
          // The same photo made again gives the same files: a name serves one photo's file only.
          const first = made.files[0]!.name
          if (tx.select({ name: photoFiles.name }).from(photoFiles).where(eq(photoFiles.name, first)).get()) {
            throw new Refused(refuse(409, photoWords.again, 'photo'))
          }
          const row = tx
            .insert(photos)
            .values({
              alt: described.alt,
              position: photoLimits.count,
              width: made.width,
              height: made.height,
              addedAt: new Date(now()),
            })
            .returning({ id: photos.id })
            .get()
          id = row.id
          for (const file of made.files)
            tx.insert(photoFiles)
              .values({ ...file, photoId: id })
              .run()
          renumber(tx, idsInOrder(tx))
        })
      } catch (error) {
        if (error instanceof Refused) return error.refusal
        throw error
      }
      return { ok: true, id }
    },

    async describe(id: number, written: string, by: By): Promise<Answer<object>> {
      const described = altText(written)
      if (!described.ok) return described
      const found = db.select({ id: photos.id }).from(photos).where(eq(photos.id, id)).get()
      if (!found) return refuse(404, 'That photo is no longer on the page.')
      await change(by, `Described a photo: ${quoted(described.alt)}`, 'photo-changed', (tx) => {
        tx.update(photos).set({ alt: described.alt }).where(eq(photos.id, id)).run()
      })
      return { ok: true }
    },

    /** Moves a photo one place earlier or later on the page. */
    async move(id: number, way: 'earlier' | 'later', by: By): Promise<Answer<object>> {
      const ids = idsInOrder(db)
      const at = ids.indexOf(id)
      if (at < 0) return refuse(404, 'That photo is no longer on the page.')
      const to = way === 'earlier' ? at - 1 : at + 1
      if (to < 0 || to >= ids.length) return { ok: true }
      ;[ids[at], ids[to]] = [ids[to]!, ids[at]!]
      await change(by, `Moved photo ${at + 1} to place ${to + 1}`, 'photo-changed', (tx) => renumber(tx, ids))
      return { ok: true }
    },

    async remove(id: number, by: By): Promise<Answer<object>> {
      const found = db.select({ alt: photos.alt }).from(photos).where(eq(photos.id, id)).get()
      if (!found) return refuse(404, 'That photo is no longer on the page.')
      await change(by, `Removed a photo: ${quoted(found.alt)}`, 'photo-removed', (tx) => {
        tx.delete(photos).where(eq(photos.id, id)).run()
        renumber(tx, idsInOrder(tx))
      })
      return { ok: true }
    },
  }
}

/** A refusal found inside the transaction, which it ends. */
class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.error)
  }
}

export type Photos = ReturnType<typeof createPhotos>
