import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { farmTexts } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { refuse, type Answer } from '#app/http/refusal.server'
import { acknowledgementPlaceholders, placeholderError } from '#app/writing/placeholders'
import { oneLineBreak, writingError } from '#app/writing/writing'
import { acknowledgementKey, defaultAcknowledgement } from './acknowledgement.server'
import { savedReplyLimits } from './saved-replies.server'

/** The acknowledgement as the owner sets it: whether it is sent, and its text. */
export function createAcknowledgementText({
  db,
  writes,
  acknowledging,
  now,
}: {
  db: FarmDatabase
  writes: Writes
  acknowledging: () => boolean
  now: () => Date
}) {
  return {
    /** Whether it is sent at all. */
    get on() {
      return acknowledging()
    },

    /** The text every acknowledgement is sent with, placeholders unfilled. */
    text(): string {
      return (
        db.select({ text: farmTexts.text }).from(farmTexts).where(eq(farmTexts.key, acknowledgementKey)).get()?.text ??
        defaultAcknowledgement
      )
    },

    async setText(typed: string): Promise<Answer<object>> {
      const text = oneLineBreak(typed)
      const written = writingError(text, 'the acknowledgement’s text', savedReplyLimits.text)
      if (written) return refuse(400, written)
      const problem = placeholderError(text, acknowledgementPlaceholders)
      if (problem) {
        return refuse(
          400,
          `${problem} It goes to whoever typed the address, so it never repeats anything they typed, not even a name.`,
        )
      }
      const values = { key: acknowledgementKey, text, updatedAt: now() }
      await writes.whenFree(() =>
        db.insert(farmTexts).values(values).onConflictDoUpdate({ target: farmTexts.key, set: values }).run(),
      )
      return { ok: true }
    },
  }
}
