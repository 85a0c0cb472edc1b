import { and, desc, eq, gt, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { submissionTags, tagCounts } from '#app/data/schema'
import type { TagCount } from '#app/leads/lead'

/** The inbox's counts of each status, tag and failed mail, read from counts the triggers keep, each stamped when read. */
export function createInboxCounts({ db, now }: { db: FarmDatabase; now: () => number }) {
  // Readings are stamped in the order this one thread makes them, ahead of any earlier process's.
  let lastReading = 0
  const readingAt = () => (lastReading = Math.max(lastReading + 1, now() * 1000))
  const stamped = (rows: Array<Omit<TagCount, 'at'>>): TagCount[] => {
    const at = readingAt()
    return rows.map((row) => ({ ...row, at }))
  }

  function readCount(kind: TagCount['kind'], value: string): TagCount {
    const count =
      db
        .select({ count: tagCounts.count })
        .from(tagCounts)
        .where(and(eq(tagCounts.kind, kind), eq(tagCounts.value, value)))
        .get()?.count ?? 0
    return { kind, value, count, at: readingAt() }
  }

  return {
    /** A reading stamp on the same clock as the counts': a page read before it is older than any change stamped after. */
    readAt: readingAt,

    /** How many submissions in the inbox the owner has not dealt with yet. */
    countNew: () => readCount('status', 'new'),

    /** How many mails to visitors failed and wait for the owner to try again or dismiss. */
    countFailedReplies: () => readCount('delivery', 'failed'),

    /** How many kept submissions carry each intent, product and urgency; read from counts the triggers keep. */
    tagCounts(): TagCount[] {
      return stamped(db.select().from(tagCounts).where(gt(tagCounts.count, 0)).orderBy(desc(tagCounts.count)).all())
    },

    /** The counts a change to this submission can move: its own tags', the statuses' and the failed mails'. */
    countsTouchedBy(id: number): TagCount[] {
      return stamped(
        db
          .select()
          .from(tagCounts)
          .where(
            sql`${tagCounts.kind} IN ('status', 'delivery') OR (${tagCounts.kind}, ${tagCounts.value}) IN (SELECT ${submissionTags.kind}, ${submissionTags.value} FROM ${submissionTags} WHERE ${submissionTags.submissionId} = ${id})`,
          )
          .all(),
      )
    },

    /** Every count, those gone to zero too: what a removal may have moved. */
    everyCount: (): TagCount[] => stamped(db.select().from(tagCounts).all()),
  }
}
