import { count, desc, eq, ne, or, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { SubscriberStatus } from '#app/data/enums'
import { subscribers, type SubscriberRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { refuse, type Answer } from '#app/http/refusal.server'
import { writingError } from '#app/writing/writing'
import { isEmailAddress, mailboxKey } from '#app/leads/mailbox'
import type { SubscriberLookups } from './subscriber-lookups.server'
import type { Subscriber } from './update'

/** What one page of the subscribers list shows, and how long a search or a note may be. */
export const subscriberLimits = { onPage: 20, search: 100, note: 200, name: 100 } as const

const toSubscriber = (row: SubscriberRow): Subscriber => ({
  id: row.id,
  email: row.email,
  name: row.name,
  status: row.status,
  consent: row.consent,
  addedBy: row.addedBy,
  removedByOwner: row.status === 'unsubscribed' && row.unsubscribedBy === 'owner',
  since: (row.unsubscribedAt ?? row.subscribedAt ?? row.askedAt ?? row.createdAt).toISOString(),
})

/** The owner's list of subscribers: adding someone who asked in person, taking someone off, the counts and a search. */
export function createSubscribersByOwner({
  db,
  writes,
  lookups: { stopped, byAddress, byId },
  leftBeforeForgetting,
  now,
}: {
  db: FarmDatabase
  writes: Writes
  lookups: SubscriberLookups
  leftBeforeForgetting: (address: string) => boolean
  now: () => Date
}) {
  return {
    /** The owner adds someone who asked in person, with a note of how they asked. */
    async add(input: { email: string; name: string; note: string }): Promise<Answer<{ subscriber: Subscriber }>> {
      const email = input.email.trim()
      const name = input.name.trim()
      const note = input.note.trim()
      if (!isEmailAddress(email)) return refuse(400, 'Enter an email address such as ann@example.com.')
      const problem =
        (name ? writingError(name, 'a name', subscriberLimits.name) : null) ??
        writingError(note, 'a note of how they asked for updates', subscriberLimits.note)
      if (problem) return refuse(400, problem)
      if (/[\r\n]/.test(name + note)) return refuse(400, 'A name and a note are one line each.')
      const addressKey = mailboxKey(email)
      const stop = stopped(addressKey)
      if (stop) {
        return {
          ok: false,
          status: 409,
          error:
            stop === 'complaint'
              ? `${email} reported the farm’s mail as spam: only they can subscribe again.`
              : `Mail to ${email} bounced: if that was in error, choose ‘Mail them again’ under What came back first.`,
        }
      }
      const existing = byAddress.get({ addressKey })
      if (existing?.status === 'subscribed') return refuse(409, `${existing.email} is subscribed already.`)
      if (existing?.status === 'unsubscribed') {
        return {
          ok: false,
          status: 409,
          error: `${existing.email} unsubscribed: only they can subscribe again, from a link in a mail of ours.`,
        }
      }
      if (!existing && leftBeforeForgetting(email)) {
        return {
          ok: false,
          status: 409,
          error: `${email} unsubscribed before they were forgotten: the farm does not mail them again.`,
        }
      }
      const at = now()
      const values = {
        email,
        addressKey,
        name,
        status: 'subscribed' as const,
        consent: note,
        addedBy: 'owner' as const,
        subscribedAt: at,
        unsubscribedAt: null,
        unsubscribedBy: null,
        lastError: null,
      }
      // Someone who left in the meantime stays gone: the upsert skips them, and nothing comes back.
      const [row] = await writes.whenFree(() =>
        db
          .insert(subscribers)
          .values({ ...values, createdAt: at })
          .onConflictDoUpdate({
            target: subscribers.addressKey,
            set: values,
            setWhere: ne(subscribers.status, 'unsubscribed'),
          })
          .returning()
          .all(),
      )
      if (!row) return refuse(409, `${email} unsubscribed: only they can subscribe again.`)
      return { ok: true, subscriber: toSubscriber(row) }
    },

    /** The owner takes someone off the list: never mailed an update again, nor asked again. */
    async remove(id: number): Promise<Answer<object>> {
      const row = byId.get({ id })
      if (!row) return refuse(404, 'There is no such subscriber.')
      if (row.status !== 'unsubscribed' || row.unsubscribedBy !== 'owner') {
        await writes.whenFree(() =>
          db
            .update(subscribers)
            .set({ status: 'unsubscribed', unsubscribedAt: now(), unsubscribedBy: 'owner' })
            .where(eq(subscribers.id, id))
            .run(),
        )
      }
      return { ok: true }
    },

    /** Subscribed, asked and left, counted (one read of an index each). */
    counts(): Record<SubscriberStatus, number> {
      const counts = { asked: 0, subscribed: 0, unsubscribed: 0, undeliverable: 0 }
      for (const row of db
        .select({ status: subscribers.status, count: count() })
        .from(subscribers)
        .groupBy(subscribers.status)
        .all())
        counts[row.status] = row.count
      return counts
    },

    /** The newest subscribers, or those whose address or name holds the search: one page. */
    list(search: string): Subscriber[] {
      const words = search.trim().slice(0, subscriberLimits.search)
      const pattern = `%${words.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
      return db
        .select()
        .from(subscribers)
        .where(
          words
            ? or(
                sql`${subscribers.email} LIKE ${pattern} ESCAPE '\\'`,
                sql`${subscribers.name} LIKE ${pattern} ESCAPE '\\'`,
              )
            : undefined,
        )
        .orderBy(desc(subscribers.id))
        .limit(subscriberLimits.onPage)
        .all()
        .map(toSubscriber)
    },
  }
}
