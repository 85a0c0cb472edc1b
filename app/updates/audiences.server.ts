import { sql, type SQL } from 'drizzle-orm'
import { intents as knownIntents } from '#app/analysis/analysis'
import type { FarmDatabase } from '#app/data/database.server'
import { subscribers } from '#app/data/schema'
import { refuse, type Answer } from '#app/http/refusal.server'
import type { Audience } from './update'

/**
 * The subscribers an audience reaches, as SQL: subscribed, and (when products or intents are
 * chosen) with one kept submission the analysis tagged with one of the chosen products and one
 * of the chosen intents. Both sides of the address comparison are `lower(…)` expressions, so
 * SQLite finds each subscriber's submissions through the index on `lower(email)` (a column
 * compared with it would not use the index, and would fold case differently).
 */
export function audienceWhere({ products, intents }: Audience): SQL {
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

/** How many subscribers an audience reaches now. */
export const subscribersReached = (db: FarmDatabase, audience: Audience) =>
  db.get<{ n: number }>(sql`SELECT count(*) AS n FROM subscribers s WHERE ${audienceWhere(audience)}`).n

/** Why an audience reaches nobody, in the owner's words. */
export const nobodyWouldGetIt = ({ products, intents }: Audience) =>
  products.length + intents.length > 0
    ? 'No subscriber asked about what you chose: choose other products or intents, or send to everyone.'
    : 'There are no subscribers yet: nobody would get this update.'

/** Whom an update is aimed at: the products and intents the owner may choose, and the subscribers they reach. */
export function createAudiences({
  db,
  products,
}: {
  db: FarmDatabase
  /** The products the analysis looks for (FARM_PRODUCTS), the audience's choices. */
  products: () => string[]
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

  return {
    audienceError,
    /** How many subscribers an audience reaches now; null with the reason when it is not one. */
    audienceSize(audience: Audience): Answer<{ recipients: number }> {
      const problem = audienceError(audience)
      return problem ? refuse(400, problem) : { ok: true, recipients: subscribersReached(db, audience) }
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
