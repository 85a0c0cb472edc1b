import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { mailboxMarks } from '#app/data/schema'

/** Where the reading of one mailbox stands: the message it read is after `lastUid`. */
export interface Mark {
  mailbox: string
  uidValidity: number
  uid: number
}

/** Where the reading of each mailbox got to, moved past each message as it is acted on. */
export function createMailboxMarks({ db, now }: { db: FarmDatabase; now: () => Date }) {
  return {
    moveMark({ mailbox, uidValidity, uid }: Mark) {
      db.insert(mailboxMarks)
        .values({ mailbox, uidValidity, lastUid: uid, changedAt: now() })
        .onConflictDoUpdate({ target: mailboxMarks.mailbox, set: { uidValidity, lastUid: uid, changedAt: now() } })
        .run()
    },

    /** Where reading this mailbox got to, or null before its first read. */
    markOf(mailbox: string): { uidValidity: number; lastUid: number } | null {
      return db.select().from(mailboxMarks).where(eq(mailboxMarks.mailbox, mailbox)).get() ?? null
    },
  }
}
