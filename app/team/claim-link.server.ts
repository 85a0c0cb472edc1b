import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { claimLinks } from '#app/data/schema'
import { sha256, tokenShape } from '#app/owner/access-basics.server'

const claimLinkMs = 60 * 60 * 1000
const onlyRow = 1

/**
 * The one-time link that claims the site, kept as its hash: each one made replaces the last, so
 * only the newest printed works, for an hour.
 */
export function createClaimLinks(db: Pick<FarmDatabase, 'select' | 'insert' | 'delete'>, now: () => number) {
  return {
    /** A fresh link's secret part (its path is /set-up/ and it). */
    make(): string {
      const token = randomBytes(32).toString('base64url')
      const row = { id: onlyRow, hash: sha256(token), until: now() + claimLinkMs }
      db.insert(claimLinks).values(row).onConflictDoUpdate({ target: claimLinks.id, set: row }).run()
      return token
    },
    good(token: string): boolean {
      if (!tokenShape.test(token)) return false
      const row = db.select().from(claimLinks).where(eq(claimLinks.id, onlyRow)).get()
      return row !== undefined && row.until > now() && row.hash === sha256(token)
    },
    usedUp() {
      db.delete(claimLinks).run()
    },
  }
}

export type ClaimLinks = ReturnType<typeof createClaimLinks>
