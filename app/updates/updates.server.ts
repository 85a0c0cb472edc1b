import { and, desc, eq, gte, sql, type SQL } from 'drizzle-orm'
import { intents as knownIntents } from '#app/analysis/analysis'
import type { FarmDatabase } from '#app/data/database.server'
import type { DeliveryState } from '#app/data/enums'
import { deliveries, subscribers, updates, type UpdateRow } from '#app/data/schema'
import { waiting } from '#app/delivery/record.server'
import type { Writes } from '#app/data/writes.server'
import { requestKeyShape, type Refusal } from '#app/http/refusal.server'
import { oneLineBreak } from '#app/writing/writing'
import { complaintsStop, updateError, type Audience, type ReturnRates, type UpdateReport } from './update'

type Answer<T> = ({ ok: true } & T) | Refusal

/** How many past updates the page reports on. */
const reportsOnPage = 10

/**
 * The subscribers an audience reaches, as SQL: subscribed, and (when products or intents are
 * chosen) with one kept submission the analysis tagged with one of the chosen products and one
 * of the chosen intents. Both sides of the address comparison are `lower(…)` expressions, so
 * SQLite finds each subscriber's submissions through the index on `lower(email)` (a column
 * compared with it would not use the index, and would fold case differently).
 */
function audienceWhere({ products, intents }: Audience): SQL {
  const tagged = (kind: 'product' | 'intent', values: string[]) =>
    values.length === 0
      ? sql``
      : sql` AND EXISTS (SELECT 1 FROM submission_tags t WHERE t.submission_id = m.id AND t.kind = ${kind}
          AND t.value IN (${sql.join(
            values.map((value) => sql`${value}`),
            sql`, `,
          )}))`
  if (products.length + intents.length === 0) return sql`s.status = 'subscribed'`
  return sql`s.status = 'subscribed' AND EXISTS (SELECT 1 FROM submissions m
    WHERE lower(m.email) = lower(s.email) AND m.spam_reasons IS NULL${tagged('product', products)}${tagged('intent', intents)})`
}

/** An update just queued: its report waits for whoever asks (counting 10,000 rows is not the sender's answer's job). */
type Queued = Pick<UpdateRow, 'id' | 'subject' | 'recipients'>
const queuedAs = ({ id, subject, recipients }: UpdateRow): Queued => ({ id, subject, recipients })

/** Why an audience reaches nobody, in the owner's words. */
const nobodyWouldGetIt = ({ products, intents }: Audience) =>
  products.length + intents.length > 0
    ? 'No subscriber asked about what you chose: choose other products or intents, or send to everyone.'
    : 'There are no subscribers yet: nobody would get this update.'

/** Thrown inside the update's transaction when nobody would get it, so nothing is kept. */
class NobodyToMail extends Error {}

/**
 * The owner's updates and offers: each written with one outbox row per recipient in a single
 * transaction (an INSERT … SELECT, so 10,000 recipients take one statement), sent by the update
 * sender at its own pace, and reported on from those rows.
 */
export function createUpdates({
  db,
  writes,
  products,
  queued,
  now = () => new Date(),
}: {
  db: FarmDatabase
  writes: Writes
  /** The products the analysis looks for (FARM_PRODUCTS), the audience's choices. */
  products: () => string[]
  /** Called once an update is queued, so the sender starts at once. */
  queued: () => void
  now?: () => Date
}) {
  /** Why an audience cannot be aimed at, or null. */
  function audienceError({ products: chosen, intents }: Audience): string | null {
    const known = products()
    const product = chosen.find((name) => !known.includes(name))
    if (product !== undefined) return `There is no product “${product.slice(0, 60)}”: choose from ${known.join(', ')}.`
    const intent = intents.find((name) => !(knownIntents as readonly string[]).includes(name))
    if (intent !== undefined)
      return `There is no intent “${intent.slice(0, 60)}”: choose from ${knownIntents.join(', ')}.`
    return null
  }

  const inputError = (input: { subject: string; text: string; audience: Audience }) =>
    updateError(input.subject, input.text) ?? audienceError(input.audience)

  const audienceSize = (audience: Audience) =>
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM subscribers s WHERE ${audienceWhere(audience)}`).n

  /** Bounces and complaints of the last 30 days against the update mails sent in them, from indexed counts. */
  function returnRates(): ReturnRates {
    const since = now().getTime() - 30 * 24 * 60 * 60 * 1000
    return db.get<ReturnRates>(
      sql`SELECT
        (SELECT count(*) FROM deliveries WHERE kind = 'update-mail' AND sent_at >= ${since}) AS sent,
        (SELECT count(DISTINCT delivery_id) FROM returned_mails WHERE kind = 'bounce' AND update_id IS NOT NULL AND received_at >= ${since}) AS bounced,
        (SELECT count(DISTINCT delivery_id) FROM returned_mails WHERE kind = 'complaint' AND update_id IS NOT NULL AND received_at >= ${since}) AS complaints`,
    )
  }

  function report(row: UpdateRow): UpdateReport {
    const counts = { queued: 0, retrying: 0, sent: 0, failed: 0, skipped: 0, bounced: 0 }
    for (const { state, n } of db.all<{ state: DeliveryState; n: number }>(
      sql`SELECT state, count(*) AS n FROM deliveries WHERE update_id = ${row.id} GROUP BY 1`,
    )) {
      // `queued` counts all that wait for their turn, `retrying` those of them that failed once.
      if (state === 'retrying') counts.retrying += n
      counts[state === 'retrying' ? 'queued' : state === 'gave-up' ? 'failed' : state] += n
    }
    const failures = db.all<{ reason: string; count: number }>(
      sql`SELECT coalesce(last_error, 'No reason given') AS reason, count(*) AS count FROM deliveries
          WHERE update_id = ${row.id} AND state IN ('failed', 'gave-up') GROUP BY 1 ORDER BY 2 DESC LIMIT 5`,
    )
    const complained = db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM returned_mails WHERE update_id = ${row.id} AND kind = 'complaint'`,
    ).n
    const left = db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM deliveries um JOIN subscribers s ON s.id = um.subscriber_id
          WHERE um.update_id = ${row.id} AND s.status = 'unsubscribed' AND s.unsubscribed_by = 'them'
          AND s.unsubscribed_at >= ${row.createdAt.getTime()}`,
    ).n
    return {
      id: row.id,
      subject: row.subject,
      createdAt: row.createdAt.toISOString(),
      audience: { products: row.products, intents: row.intents },
      recipients: row.recipients,
      ...counts,
      complained,
      unsubscribedSince: left,
      failures,
      sentBy:
        row.sentBy === null
          ? null
          : (db.get<{ name: string } | undefined>(sql`SELECT name FROM team WHERE id = ${row.sentBy}`)?.name ?? null),
    }
  }

  return {
    get choices() {
      return { products: products(), intents: knownIntents }
    },
    audienceError,
    returnRates,
    /**
     * Whether an update could be sent now, and to how many: the checks `send` makes, for the
     * composer's last question before it sends.
     */
    check(input: { subject: string; text: string; audience: Audience }): Answer<{ recipients: number }> {
      const problem = inputError(input)
      if (problem) return { ok: false, status: 400, error: problem }
      const recipients = audienceSize(input.audience)
      if (recipients === 0) return { ok: false, status: 400, error: nobodyWouldGetIt(input.audience) }
      return { ok: true, recipients }
    },
    /** How many subscribers an audience reaches now; null with the reason when it is not one. */
    audienceSize(audience: Audience): Answer<{ recipients: number }> {
      const problem = audienceError(audience)
      return problem ? { ok: false, status: 400, error: problem } : { ok: true, recipients: audienceSize(audience) }
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
        return { ok: false, status: 400, error: 'An Idempotency-Key is 8 to 64 letters, digits, - or _.' }
      }
      const problem = inputError(input)
      if (problem) return { ok: false, status: 400, error: problem }
      const earlier = () =>
        input.requestKey === undefined
          ? undefined
          : db.select().from(updates).where(eq(updates.requestKey, input.requestKey)).get()
      const before = earlier()
      if (before) return { ok: true, update: queuedAs(before), repeated: true }
      const stopped = complaintsStop(returnRates())
      if (stopped) return { ok: false, status: 409, error: stopped }
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
            const { changes } = tx.run(
              // Each mail's Message-ID is random and kept with it, so a retry sends the same one.
              sql`INSERT INTO deliveries (kind, update_id, subscriber_id, next_attempt_at, created_at, receipt_key)
                  SELECT 'update-mail', ${made.id}, s.id, ${at.getTime()}, ${at.getTime()},
                    'update.' || lower(hex(randomblob(16))) FROM subscribers s
                  WHERE ${audienceWhere(input.audience)} ORDER BY s.id`,
            )
            if (changes === 0) throw new NobodyToMail()
            const row = tx.update(updates).set({ recipients: changes }).where(eq(updates.id, made.id)).returning().get()
            return { row, repeated: false }
          }),
        )
        queued()
        return { ok: true, update: queuedAs(row), repeated }
      } catch (error) {
        if (!(error instanceof NobodyToMail)) throw error
        return { ok: false, status: 400, error: nobodyWouldGetIt(input.audience) }
      }
    },

    /** One update's report, or null when there is no such update. */
    report(id: number): UpdateReport | null {
      const row = db.select().from(updates).where(eq(updates.id, id)).get()
      return row ? report(row) : null
    },

    /** The latest updates' reports, newest first. */
    reports(): UpdateReport[] {
      return db.select().from(updates).orderBy(desc(updates.id)).limit(reportsOnPage).all().map(report)
    },

    /** The reports of the updates sent since a moment, newest first, at most `most` (the insights). */
    reportsSince(since: Date, most: number): UpdateReport[] {
      return db
        .select()
        .from(updates)
        .where(gte(updates.createdAt, since))
        .orderBy(desc(updates.id))
        .limit(most)
        .all()
        .map(report)
    },

    /** Whether mails of an update wait to be sent (the page then looks again while they go). */
    sending(): boolean {
      return (
        db
          .select({ id: deliveries.id })
          .from(deliveries)
          .where(and(eq(deliveries.kind, 'update-mail'), waiting))
          .limit(1)
          .all().length > 0
      )
    },

    /** Someone in the audience to show the preview for: the first subscriber it reaches. */
    sample(audience: Audience) {
      return db
        .select()
        .from(subscribers)
        .where(
          sql`${subscribers.id} = (SELECT s.id FROM subscribers s WHERE ${audienceWhere(audience)} ORDER BY s.id LIMIT 1)`,
        )
        .get()
    },
  }
}

export type Updates = ReturnType<typeof createUpdates>
