import { count, desc, eq, ne, or, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { mailStops } from '#app/data/mail-stops.server'
import type { SubscriberStatus } from '#app/data/enums'
import { subscribers, type SubmissionRow, type SubscriberRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { Refusal } from '#app/http/refusal.server'
import { writingError } from '#app/writing/writing'
import { isEmailAddress, mailboxKey } from '#app/leads/mailbox'
import { confirmLinkDays, type SignedLinks } from './signed-links.server'
import type { LinkAnswer, Subscriber } from './update'

const dayMs = 24 * 60 * 60 * 1000
/** How long someone who left by their own link may undo it from the page. */
const undoWithinMs = dayMs
/** What one page of the subscribers list shows, and how long a search or a note may be. */
export const subscriberLimits = { onPage: 20, search: 100, note: 200, name: 100 } as const

type Answer<T> = ({ ok: true } & T) | Refusal

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

/**
 * Who gets the farm's updates, by their own confirmed consent: asked once (inside the
 * transaction that keeps their clean lead), subscribed only by the POST of their signed link,
 * unsubscribed by theirs in one click, and never asked or mailed again once they left.
 */
export function createSubscribers({
  db,
  writes,
  links,
  farmName,
  leftBeforeForgetting = () => false,
  now = () => new Date(),
}: {
  db: FarmDatabase
  writes: Writes
  links: SignedLinks
  farmName: () => string
  /** Whether the address's mailbox had left the updates when it was forgotten: an unsubscribe outlives erasure. */
  leftBeforeForgetting?: (address: string) => boolean
  now?: () => Date
}) {
  /** The words a visitor says yes to, shown on the confirm page and kept with their consent. */
  const consentWordsNow = () =>
    `Yes, send me ${farmName()}’s updates by email: new products, what is in season, and offers. I can unsubscribe from any of them in one click.`
  const stopped = mailStops(db)
  const byAddress = db
    .select()
    .from(subscribers)
    .where(eq(subscribers.addressKey, sql.placeholder('addressKey')))
    .prepare()
  const byId = db
    .select()
    .from(subscribers)
    .where(eq(subscribers.id, sql.placeholder('id')))
    .prepare()

  const askExpired = (row: SubscriberRow, at: Date) =>
    row.status === 'asked' && (row.askedAt?.getTime() ?? 0) <= at.getTime() - confirmLinkDays * dayMs

  /** The subscriber a link names, when its signature holds for their mailbox (and, for confirm, it has not expired). */
  function holder(purpose: 'confirm' | 'unsubscribe', token: string): { row: SubscriberRow } | LinkAnswer {
    const read = links.read(purpose, token)
    const row = read ? byId.get({ id: read.subscriberId }) : undefined
    if (!read || !row || !links.holds(purpose, read, row.addressKey)) return { ok: false, why: 'invalid' }
    if (read.expiresAt !== null && read.expiresAt <= now().getTime()) return { ok: false, why: 'expired' }
    return { row }
  }

  const mayUndo = (row: Pick<SubscriberRow, 'status' | 'unsubscribedBy' | 'unsubscribedAt'>) =>
    row.status === 'unsubscribed' &&
    row.unsubscribedBy === 'them' &&
    (row.unsubscribedAt?.getTime() ?? 0) > now().getTime() - undoWithinMs

  async function change(
    token: string,
    purpose: 'confirm' | 'unsubscribe',
    next: (row: SubscriberRow) => Partial<SubscriberRow> | null,
  ): Promise<LinkAnswer> {
    const found = holder(purpose, token)
    if (!('row' in found)) return found
    const update = next(found.row)
    if (update)
      await writes.whenFree(() => db.update(subscribers).set(update).where(eq(subscribers.id, found.row.id)).run())
    const row = { ...found.row, ...update }
    return { ok: true, email: row.email, status: row.status, mayUndo: mayUndo(row) }
  }

  const look = (purpose: 'confirm' | 'unsubscribe', token: string): LinkAnswer => {
    const found = holder(purpose, token)
    return 'row' in found
      ? { ok: true, email: found.row.email, status: found.row.status, mayUndo: mayUndo(found.row) }
      : found
  }

  return {
    get consentWords() {
      return consentWordsNow()
    },

    /**
     * Inside the transaction that keeps a clean lead: whether its address may be asked to confirm
     * (it is not subscribed, has not left, even before being forgotten, and has no ask still open).
     */
    mayAsk(email: string, at: Date): boolean {
      if (stopped(mailboxKey(email))) return false
      const row = byAddress.get({ addressKey: mailboxKey(email) })
      if (row) return askExpired(row, at)
      return !leftBeforeForgetting(email)
    },

    /** Records the ask (in the lead's transaction) and gives the subscriber's id for the mail's link. */
    ask(lead: SubmissionRow, at: Date): number {
      const addressKey = mailboxKey(lead.email)
      const [row] = db
        .insert(subscribers)
        .values({
          email: lead.email,
          addressKey,
          name: lead.name,
          status: 'asked',
          addedBy: 'visitor',
          askedAt: at,
          createdAt: at,
        })
        .onConflictDoUpdate({
          target: subscribers.addressKey,
          set: { email: lead.email, name: lead.name, askedAt: at },
          where: eq(subscribers.status, 'asked'),
        })
        .returning({ id: subscribers.id })
        .all()
      return row!.id
    },

    /** What the confirm page shows for a link (a GET changes nothing: mail scanners open links). */
    lookConfirm: (token: string) => look('confirm', token),
    /** The visitor's own "Yes, send me updates": subscribes them, with the words they agreed to. */
    confirm: (token: string) =>
      change(token, 'confirm', (row) =>
        row.status === 'subscribed'
          ? null
          : {
              status: 'subscribed',
              consent: consentWordsNow(),
              subscribedAt: now(),
              unsubscribedAt: null,
              unsubscribedBy: null,
              lastError: null,
            },
      ),
    lookUnsubscribe: (token: string) => look('unsubscribe', token),
    /** One click, from the mail program or the page: no more updates, nor asks. */
    unsubscribe: (token: string) =>
      change(token, 'unsubscribe', (row) =>
        row.status === 'subscribed' || row.status === 'asked'
          ? { status: 'unsubscribed', unsubscribedAt: now(), unsubscribedBy: 'them' }
          : null,
      ),
    /** Their own click on "Undo", within a day of leaving by their own link: subscribed again on the consent they gave. */
    undo: (token: string) =>
      change(token, 'unsubscribe', (row) =>
        mayUndo(row) ? { status: 'subscribed', unsubscribedAt: null, unsubscribedBy: null } : null,
      ),

    /** The owner adds someone who asked in person, with a note of how they asked. */
    async add(input: { email: string; name: string; note: string }): Promise<Answer<{ subscriber: Subscriber }>> {
      const email = input.email.trim()
      const name = input.name.trim()
      const note = input.note.trim()
      if (!isEmailAddress(email))
        return { ok: false, status: 400, error: 'Enter an email address such as ann@example.com.' }
      const problem =
        (name ? writingError(name, 'a name', subscriberLimits.name) : null) ??
        writingError(note, 'a note of how they asked for updates', subscriberLimits.note)
      if (problem) return { ok: false, status: 400, error: problem }
      if (/[\r\n]/.test(name + note)) return { ok: false, status: 400, error: 'A name and a note are one line each.' }
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
      if (existing?.status === 'subscribed')
        return { ok: false, status: 409, error: `${existing.email} is subscribed already.` }
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
      if (!row) return { ok: false, status: 409, error: `${email} unsubscribed: only they can subscribe again.` }
      return { ok: true, subscriber: toSubscriber(row) }
    },

    /** The owner takes someone off the list: never mailed an update again, nor asked again. */
    async remove(id: number): Promise<Answer<object>> {
      const row = byId.get({ id })
      if (!row) return { ok: false, status: 404, error: 'There is no such subscriber.' }
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

export type Subscribers = ReturnType<typeof createSubscribers>
