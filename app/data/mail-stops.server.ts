import { eq, sql } from 'drizzle-orm'
import type { FarmDatabase } from './database.server'
import { mailSuppressions } from './schema'
import type { ReturnedKind } from './enums'

/**
 * Whether the farm stopped mailing a mailbox unasked (it bounced for good, or complained): one
 * indexed read, for every sender of unasked mail (acknowledgements, asks, the owner's adding).
 */
export function mailStops(db: FarmDatabase): (addressKey: string) => ReturnedKind | null {
  const stop = db
    .select({ kind: mailSuppressions.kind })
    .from(mailSuppressions)
    .where(eq(mailSuppressions.addressKey, sql.placeholder('addressKey')))
    .prepare()
  return (addressKey) => stop.get({ addressKey })?.kind ?? null
}
