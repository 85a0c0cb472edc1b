import { z } from 'zod'
import { eq, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { farmPage, team } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { refuse, type Answer } from '#app/http/refusal.server'
import type { Log } from '#app/log'
import type { ActivityLog } from '#app/team/activity.server'
import { exceptionsAhead, nextOpening } from './opening-hours'
import { wordLimits } from './page-limits'
import type { PageWords } from './page-words'
import { defaultWords } from './page-words.server'
import { seoOf } from './structured-data'

// Read on the server only: zod stays out of the home page's scripts.
const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/)
const span = z.object({ opens: time, closes: time }).nullable()
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)

/** The stored words as they must be: anything else read from the database is not shown. */
const storedWords = z.object({
  welcome: z.string().max(wordLimits.welcome),
  intro: z.string().max(wordLimits.intro),
  cards: z
    .array(z.object({ title: z.string().max(wordLimits.cardTitle), text: z.string().max(wordLimits.cardText) }))
    .length(2),
  story: z.string().max(5_000),
  hours: z.object({
    week: z.array(span).length(7),
    exceptions: z
      .array(z.object({ from: date, to: date, hours: span, note: z.string().max(wordLimits.note) }))
      .max(wordLimits.exceptions),
  }),
  findUs: z.object({
    address: z.string().max(wordLimits.address),
    directions: z.string().max(wordLimits.directions),
    phone: z.string().max(wordLimits.phone),
  }),
}) satisfies z.ZodType<PageWords>

const parsedOrNull = (json: string): unknown => {
  try {
    return JSON.parse(json)
  } catch {
    return null
  }
}

type Transaction = Parameters<Parameters<FarmDatabase['transaction']>[0]>[0]
type Version = (typeof farmPage.$inferSelect)['version']

/** One of the page's versions as the editor tells of it. */
export interface PageVersion {
  words: PageWords
  changedAt: number
  /** Who of the team changed it last; null once they left the team. */
  changedBy: string | null
}

/** Who changes the page, as the activity log names them. */
export interface Changer {
  by: number | null
  address: string
}

/**
 * The home page's words: a draft the owner edits and previews, the published words visitors
 * read, and the previous published, restored in one step. Each change is in the activity log,
 * in the same transaction.
 */
export function createFarmPage({
  db,
  writes,
  activity,
  log,
  now = Date.now,
}: {
  db: FarmDatabase
  writes: Writes
  activity: Pick<ActivityLog, 'recordIn'>
  log: Log
  now?: () => number
}) {
  function read(version: Version): PageVersion | null {
    const row = db
      .select({ words: farmPage.words, changedAt: farmPage.changedAt, name: team.name })
      .from(farmPage)
      .leftJoin(team, eq(team.id, farmPage.changedBy))
      .where(eq(farmPage.version, version))
      .get()
    if (!row) return null
    const words = storedWords.safeParse(parsedOrNull(row.words))
    if (!words.success) {
      log.error({ version }, 'the farm’s page is stored in a shape this site does not read: showing the spec’s texts')
      return null
    }
    return { words: words.data, changedAt: row.changedAt.getTime(), changedBy: row.name }
  }

  function change(changer: Changer, detail: string, deed: (tx: Transaction) => void) {
    return writes.whenFree(() =>
      db.transaction((tx) => {
        deed(tx)
        activity.recordIn(tx, { kind: 'farm-page', by: changer.by, detail, address: changer.address })
      }),
    )
  }

  const rowOf = (version: Version, words: PageWords, changer: Changer) => ({
    version,
    words: JSON.stringify(words),
    changedAt: new Date(now()),
    changedBy: changer.by,
  })

  // Every lead's analysis asks for the published hours: the words are read and checked again only
  // when the published row is another (each publish or restore writes a new row or moves one).
  const publishedRow = db
    .select({ row: sql<number>`rowid`, changedAt: farmPage.changedAt })
    .from(farmPage)
    .where(eq(farmPage.version, 'published'))
    .prepare()
  let lastPublished: { stamp: string; words: PageWords } | null = null

  return {
    /** The words visitors read: the published, else the spec's. */
    published(): PageWords {
      const found = publishedRow.get()
      const stamp = found ? `${found.row}:${found.changedAt.getTime()}` : 'none'
      if (lastPublished?.stamp !== stamp) lastPublished = { stamp, words: read('published')?.words ?? defaultWords }
      return lastPublished.words
    },

    /**
     * What the home page shows of the words now: the published words, the opening line and the
     * days that differ still ahead on the farm's clock, and what search engines read.
     */
    forVisitors(farm: { name: string; timeZone: string }, siteUrl: string | null) {
      return visitorsView(read('published')?.words ?? defaultWords, farm, siteUrl, now())
    },

    /** The three versions, as the editor shows them. */
    versions() {
      return { draft: read('draft'), published: read('published'), previous: read('previous') }
    },

    async saveDraft(words: PageWords, changer: Changer) {
      const row = rowOf('draft', words, changer)
      await change(changer, 'Saved a draft of the farm’s page', (tx) =>
        tx.insert(farmPage).values(row).onConflictDoUpdate({ target: farmPage.version, set: row }).run(),
      )
    },

    /** These words go live; what was live becomes the previous version; the draft is done with. */
    async publish(words: PageWords, changer: Changer) {
      await change(changer, 'Published the farm’s page', (tx) => {
        tx.delete(farmPage).where(eq(farmPage.version, 'previous')).run()
        tx.update(farmPage).set({ version: 'previous' }).where(eq(farmPage.version, 'published')).run()
        tx.delete(farmPage).where(eq(farmPage.version, 'draft')).run()
        tx.insert(farmPage)
          .values(rowOf('published', words, changer))
          .run()
      })
    },

    /** The previous version goes live again, and the one it replaces becomes the previous: a second restore undoes the first. */
    async restorePrevious(changer: Changer): Promise<Answer<object>> {
      if (!read('previous')) return refuse(409, 'There is no earlier version of the page to restore.')
      await change(changer, 'Restored the farm’s page as it was published before', (tx) => {
        const held = tx.select().from(farmPage).where(eq(farmPage.version, 'published')).get()
        tx.delete(farmPage).where(eq(farmPage.version, 'published')).run()
        tx.update(farmPage).set({ version: 'published' }).where(eq(farmPage.version, 'previous')).run()
        if (held)
          tx.insert(farmPage)
            .values({ ...held, version: 'previous' })
            .run()
      })
      return { ok: true }
    },

    async discardDraft(changer: Changer): Promise<Answer<object>> {
      if (!read('draft')) return refuse(409, 'There is no draft to discard.')
      await change(changer, 'Discarded the draft of the farm’s page', (tx) => {
        tx.delete(farmPage).where(eq(farmPage.version, 'draft')).run()
      })
      return { ok: true }
    },
  }
}

/** The words as the home page shows them at a moment (the preview too). */
export function visitorsView(
  words: PageWords,
  farm: { name: string; timeZone: string },
  siteUrl: string | null,
  at: number,
) {
  const exceptions = exceptionsAhead(words.hours, at, farm.timeZone)
  return {
    words,
    opening: nextOpening(words.hours, at, farm.timeZone),
    exceptions,
    seo: seoOf({ words, farm, siteUrl, exceptions }),
  }
}

export type FarmPage = ReturnType<typeof createFarmPage>
