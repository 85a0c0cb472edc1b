import { and, asc, count, eq, ne } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { savedReplies } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { refuse, type Answer } from '#app/http/refusal.server'
import { placeholderError, replyPlaceholders } from '#app/writing/placeholders'
import { oneLineBreak, writingError } from '#app/writing/writing'

/** What the owner keeps ready to send: at most this many, each at most this long. */
export const savedReplyLimits = { count: 25, name: 60, text: 4_000 } as const

export interface SavedReply {
  id: number
  name: string
  text: string
}

/** The replies the owner keeps ready to send, by name. */
export function createSavedReplies({ db, writes, now }: { db: FarmDatabase; writes: Writes; now: () => Date }) {
  const savedNameKey = (name: string) => name.trim().toLocaleLowerCase('en')

  function savedReplyError(name: string, text: string, id?: number): string | null {
    const trimmed = name.trim()
    if (/[\r\n]/.test(trimmed)) return 'A saved reply’s name is one line.'
    const nameProblem = writingError(trimmed, 'a name for the saved reply', savedReplyLimits.name)
    if (nameProblem) return nameProblem
    const textProblem = writingError(text, 'the saved reply’s text', savedReplyLimits.text)
    if (textProblem) return textProblem
    const placeholders = placeholderError(text, replyPlaceholders)
    if (placeholders) return placeholders
    const same = db
      .select({ id: savedReplies.id })
      .from(savedReplies)
      .where(and(eq(savedReplies.nameKey, savedNameKey(name)), id === undefined ? undefined : ne(savedReplies.id, id)))
      .get()
    if (same) return `There is already a saved reply named “${trimmed}”. Choose another name.`
    return null
  }

  return {
    list(): SavedReply[] {
      return db
        .select({ id: savedReplies.id, name: savedReplies.name, text: savedReplies.text })
        .from(savedReplies)
        .orderBy(asc(savedReplies.nameKey))
        .all()
    },

    /** Creates a saved reply, or changes the one with `id`; refused with the reason when it cannot be saved. */
    async save({ id, name, text: typed }: { id?: number; name: string; text: string }): Promise<Answer<object>> {
      const text = oneLineBreak(typed)
      return writes.whenFree(() =>
        db.transaction((tx): Answer<object> => {
          const problem = savedReplyError(name, text, id)
          if (problem) return refuse(400, problem)
          const values = {
            name: name.trim(),
            nameKey: savedNameKey(name),
            text,
            updatedAt: now(),
          }
          if (id !== undefined) {
            const changed = tx.update(savedReplies).set(values).where(eq(savedReplies.id, id)).run()
            return changed.changes > 0 ? { ok: true } : refuse(404, 'That saved reply is no longer there.')
          }
          const [held] = tx.select({ count: count() }).from(savedReplies).all()
          if ((held?.count ?? 0) >= savedReplyLimits.count) {
            return refuse(409, `You can keep at most ${savedReplyLimits.count} saved replies. Delete one first.`)
          }
          tx.insert(savedReplies).values(values).run()
          return { ok: true }
        }),
      )
    },

    async remove(id: number): Promise<Answer<object>> {
      const removed = await writes.whenFree(() => db.delete(savedReplies).where(eq(savedReplies.id, id)).run())
      return removed.changes > 0 ? { ok: true } : refuse(404, 'That saved reply is no longer there.')
    },
  }
}
