import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { updates, type UpdateRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { oweAnUpdate } from '#app/delivery/record.server'
import { refuse, requestKeyShape, type Answer } from '#app/http/refusal.server'
import { oneLineBreak } from '#app/writing/writing'
import { audienceWhere, nobodyWouldGetIt, subscribersReached } from './audiences.server'
import { complaintsStop, updateError, type Audience, type ReturnRates } from './update'

/** An update just queued: its report waits for whoever asks (counting 10,000 rows is not the sender's answer's job). */
type Queued = Pick<UpdateRow, 'id' | 'subject' | 'recipients'>
const queuedAs = ({ id, subject, recipients }: UpdateRow): Queued => ({ id, subject, recipients })

/** Thrown inside the update's transaction when nobody would get it, so nothing is kept. */
class NobodyToMail extends Error {}

/**
 * An update checked and queued for its audience: the update and one outbox row per recipient in
 * a single transaction (an INSERT … SELECT, so 10,000 recipients take one statement).
 */
export function createUpdateQueueing({
  db,
  writes,
  audienceError,
  returnRates,
  queued,
  now,
}: {
  db: FarmDatabase
  writes: Writes
  audienceError: (audience: Audience) => string | null
  returnRates: () => ReturnRates
  /** Called once an update is queued, so the sender starts at once. */
  queued: () => void
  now: () => Date
}) {
  const inputError = (input: { subject: string; text: string; audience: Audience }) =>
    updateError(input.subject, input.text) ?? audienceError(input.audience)

  return {
    /**
     * Whether an update could be sent now, and to how many: the checks `send` makes, for the
     * composer's last question before it sends.
     */
    check(input: { subject: string; text: string; audience: Audience }): Answer<{ recipients: number }> {
      const problem = inputError(input)
      if (problem) return refuse(400, problem)
      const recipients = subscribersReached(db, input.audience)
      if (recipients === 0) return refuse(400, nobodyWouldGetIt(input.audience))
      return { ok: true, recipients }
    },

    /**
     * Queues an update for its audience: the update and one mail per recipient in one
     * transaction. The same request key again answers the update it made, and queues nothing.
     */
    async send(input: {
      subject: string
      text: string
      audience: Audience
      requestKey?: string
      /** Who of the team sends it. */
      by: number | null
    }): Promise<Answer<{ update: Queued; repeated: boolean }>> {
      if (input.requestKey !== undefined && !requestKeyShape.test(input.requestKey)) {
        return refuse(400, 'An Idempotency-Key is 8 to 64 letters, digits, - or _.')
      }
      const problem = inputError(input)
      if (problem) return refuse(400, problem)
      const earlier = () =>
        input.requestKey === undefined
          ? undefined
          : db.select().from(updates).where(eq(updates.requestKey, input.requestKey)).get()
      const before = earlier()
      if (before) return { ok: true, update: queuedAs(before), repeated: true }
      const stopped = complaintsStop(returnRates())
      if (stopped) return refuse(409, stopped)
      const at = now()
      try {
        const { row, repeated } = await writes.whenFree(() =>
          db.transaction((tx) => {
            const again = earlier()
            if (again) return { row: again, repeated: true }
            const made = tx
              .insert(updates)
              .values({
                subject: input.subject.trim(),
                text: oneLineBreak(input.text),
                products: input.audience.products,
                intents: input.audience.intents,
                recipients: 0,
                requestKey: input.requestKey ?? null,
                createdAt: at,
                sentBy: input.by,
              })
              .returning()
              .get()
            const changes = oweAnUpdate(tx, made.id, audienceWhere(input.audience), at)
            if (changes === 0) throw new NobodyToMail()
            const row = tx.update(updates).set({ recipients: changes }).where(eq(updates.id, made.id)).returning().get()
            return { row, repeated: false }
          }),
        )
        queued()
        return { ok: true, update: queuedAs(row), repeated }
      } catch (error) {
        if (!(error instanceof NobodyToMail)) throw error
        return refuse(400, nobodyWouldGetIt(input.audience))
      }
    },
  }
}
