import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { signingKeys } from '#app/data/schema'
import { keyText, newSealKey, readKeyText } from './sealed-copy.server'

/** The bucket's copies are sealed with this key of the site's, made here, kept with its other keys. */
const name = 'backup-bucket'

/**
 * The key the bucket's copies are sealed with: BACKUP_BUCKET_KEY when the environment sets it,
 * else the one made here and kept in the database (so every backup holds it, and a restored
 * one goes on sealing with the same). Shown to the owner once, when it is made; never again.
 */
export function bucketKeys(db: FarmDatabase, fromEnvironment: () => Buffer | null) {
  // Read once found: a key is never changed while the site runs (a restore stops it first), and
  // /healthz asks for it each time.
  let found: Buffer | null = null
  const stored = () => {
    const row = found ? null : db.select().from(signingKeys).where(eq(signingKeys.name, name)).get()
    if (row) found = readKeyText(row.key)
    return found
  }
  return {
    sealKey: () => fromEnvironment() ?? stored(),
    /** Makes the key when there is none: its text, to show once; null when there was one. */
    makeOnce(): string | null {
      if (fromEnvironment() || stored()) return null
      const key = newSealKey()
      const made = db
        .insert(signingKeys)
        .values({ name, key: keyText(key), createdAt: new Date() })
        .onConflictDoNothing()
        .run()
      return made.changes === 1 ? keyText(key) : null
    },
  }
}
