import { eq } from 'drizzle-orm'
import type { FarmDatabase } from './database.server'
import { signingKeys } from './schema'

/**
 * The site's key of this name, made by `make` the first time and kept in `signing_keys` from then
 * on. Another process that made one at the same moment wins: both read back the one stored.
 */
export function keptKey(db: FarmDatabase, name: string, make: () => string): string {
  const stored = db.select().from(signingKeys).where(eq(signingKeys.name, name)).get()
  if (stored) return stored.key
  db.insert(signingKeys).values({ name, key: make(), createdAt: new Date() }).onConflictDoNothing().run()
  return db.select().from(signingKeys).where(eq(signingKeys.name, name)).get()!.key
}
