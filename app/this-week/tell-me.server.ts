import { eq, sql, type SQL } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { productNews, productWaits, subscribers, updates } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { oweAnUpdate } from '#app/delivery/record.server'
import { refuse, type Answer } from '#app/http/refusal.server'
import { mailboxKey } from '#app/leads/mailbox'
import { receive, type Received, type ReceiveNeeds } from '#app/submissions/receive.server'
import { audienceWhere } from '#app/updates/audiences.server'
import { confirmLinkDays } from '#app/updates/signed-links.server'
import { updateError } from '#app/updates/update'
import type { UpdatesDesk } from '#app/updates/update-requests.server'
import { oneLineBreak } from '#app/writing/writing'
import { capitalised, draftNews, productIs, isForSale, mayAskToBeTold, type ReadyNews, type WeekProduct } from './week'
import type { WeekList } from './week-list.server'
import type { Language } from '#app/language/languages'

const dayMs = 24 * 60 * 60 * 1000

/** What a visitor's 'Tell me when it's ready' says to the farm: a lead of its own, in the inbox. */
export const tellMeMessage = (product: string) => `Please tell me when ${productIs(product)} ready.`

/** The farm's year on its clock: each person is told once a product a season. */
export const seasonOf = (at: Date, timeZone: string) =>
  Number(new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric' }).format(at))

/** Who waits for the product (subscribed, not yet told this season), as SQL on `subscribers s`. */
const waiting = (product: string, season: number): SQL =>
  sql`s.status = 'subscribed' AND EXISTS (SELECT 1 FROM ${productWaits} w WHERE w.address_key = s.address_key AND w.product = ${product})
    AND NOT EXISTS (SELECT 1 FROM ${productNews} n WHERE n.product = ${product} AND n.season = ${season} AND n.address_key = s.address_key)`

/** Subscribers whose leads asked about it and who are not waiting for it, nor told this season. */
const askedAbout = (product: string, season: number): SQL =>
  sql`${audienceWhere({ products: [product], intents: [] })}
    AND NOT EXISTS (SELECT 1 FROM ${productWaits} w WHERE w.address_key = s.address_key AND w.product = ${product})
    AND NOT EXISTS (SELECT 1 FROM ${productNews} n WHERE n.product = ${product} AND n.season = ${season} AND n.address_key = s.address_key)`

const countOf = (db: FarmDatabase, where: SQL) =>
  db.get<{ n: number }>(sql`SELECT count(*) AS n FROM subscribers s WHERE ${where}`).n

/**
 * 'Tell me when it's ready': a visitor's ask is a lead (so the updates' double opt-in, the caps of
 * unasked mail and the erasure all hold as for the form) plus a wait for the product; when the
 * product is for sale the updates page proposes telling them, and sends only on the owner's Send.
 */
export function createTellMe({
  db,
  writes,
  list,
  farm,
  now = () => new Date(),
}: {
  db: FarmDatabase
  writes: Writes
  list: WeekList
  farm: () => { name: string; timeZone: string }
  now?: () => Date
}) {
  const season = () => seasonOf(now(), farm().timeZone)

  return {
    /** The visitor's ask, through the form's one door; the wait is kept only for a lead kept clean. */
    async ask(
      needs: ReceiveNeeds,
      input: {
        product: string
        name: string
        email: string
        traps: unknown
        clientAddress: string
        /** The page's language: the ask's refusals and its mails are in it. */
        language: Language
      },
    ): Promise<(Received & { subscribed?: boolean }) | { outcome: 'no such product' }> {
      const item = list.item(input.product)
      if (!item || !mayAskToBeTold(item.availability)) return { outcome: 'no such product' }
      const received = await receive(needs, {
        fields: { name: input.name, email: input.email, message: tellMeMessage(item.product) },
        traps: input.traps,
        clientAddress: input.clientAddress,
        language: input.language,
      })
      if (received.outcome !== 'stored') return received
      const email = received.submission.email
      const addressKey = mailboxKey(email)
      const at = now()
      await writes.whenFree(() =>
        db.transaction((tx) => {
          tx.insert(productWaits)
            .values({ product: item.product, email, addressKey, askedAt: at })
            .onConflictDoNothing()
            .run()
          // A wait whose address never confirmed, once its confirm link has expired, can tell no one: it goes.
          tx.run(sql`DELETE FROM ${productWaits} WHERE asked_at <= ${at.getTime() - confirmLinkDays * dayMs}
            AND address_key NOT IN (SELECT address_key FROM ${subscribers} WHERE status = 'subscribed')`)
        }),
      )
      const subscription = db
        .select({ status: subscribers.status })
        .from(subscribers)
        .where(eq(subscribers.addressKey, addressKey))
        .get()
      return { ...received, subscribed: subscription?.status === 'subscribed' }
    },

    /** For each product for sale now: whom telling it would reach, with its drafted words. */
    proposals(): ReadyNews[] {
      const at = season()
      return list
        .all()
        .filter((item) => item.changedAt !== null && isForSale(item.availability))
        .map((item) => ({
          product: item.product,
          waiting: countOf(db, waiting(item.product, at)),
          askedAbout: countOf(db, askedAbout(item.product, at)),
          ...draftNews(item as WeekProduct, farm().name),
        }))
        .filter((news) => news.waiting + news.askedAbout > 0)
    },

    /** The owner's Send: one update to those waiting (and, when chosen, those who asked), each told once this season. */
    async send(
      desk: UpdatesDesk,
      input: { product: string; subject: string; text: string; alsoAsked: boolean; by: number | null },
    ): Promise<Answer<{ updateId: number; recipients: number }>> {
      const item = list.item(input.product)
      if (!item || item.changedAt === null || !isForSale(item.availability))
        return refuse(400, `${capitalised(input.product.slice(0, 60))} is not for sale this week: nobody is told yet.`)
      const problem = updateError(input.subject, input.text)
      if (problem) return refuse(400, problem)
      const at = now()
      const year = season()
      const where = input.alsoAsked
        ? sql`((${waiting(item.product, year)}) OR (${askedAbout(item.product, year)}))`
        : waiting(item.product, year)
      const made = await writes.whenFree(() =>
        db.transaction((tx) => {
          const update = tx
            .insert(updates)
            .values({
              subject: input.subject.trim(),
              text: oneLineBreak(input.text),
              products: [item.product],
              intents: [],
              recipients: 0,
              createdAt: at,
              sentBy: input.by,
            })
            .returning({ id: updates.id })
            .get()
          // Who is told is recorded first, and the mails owed to exactly them: told once a product a season.
          tx.run(sql`INSERT INTO ${productNews} (product, season, address_key, update_id, told_at)
            SELECT ${item.product}, ${year}, s.address_key, ${update.id}, ${at.getTime()} FROM subscribers s WHERE ${where}`)
          const told = sql`EXISTS (SELECT 1 FROM ${productNews} n WHERE n.update_id = ${update.id} AND n.address_key = s.address_key)`
          const recipients = oweAnUpdate(tx, update.id, told, at)
          if (recipients === 0) {
            tx.delete(updates).where(eq(updates.id, update.id)).run()
            return null
          }
          tx.update(updates).set({ recipients }).where(eq(updates.id, update.id)).run()
          return { updateId: update.id, recipients }
        }),
      )
      if (!made)
        return refuse(
          409,
          `Nobody is left to tell about ${item.product} this season: whoever was waiting has been told.`,
        )
      desk.updates.wakeSender()
      return { ok: true, ...made }
    },
  }
}

export type TellMe = ReturnType<typeof createTellMe>
