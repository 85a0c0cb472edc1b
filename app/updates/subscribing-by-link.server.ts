import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { subscribers, type SubmissionRow, type SubscriberRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { mailboxKey } from '#app/leads/mailbox'
import { confirmLinkDays, type SignedLinks } from './signed-links.server'
import type { SubscriberLookups } from './subscriber-lookups.server'
import type { LinkAnswer } from './update'
import { catalogs } from '#app/language/catalogs.server'
import { keptLanguage } from '#app/language/languages'

const dayMs = 24 * 60 * 60 * 1000
/** How long someone who left by their own link may undo it from the page. */
const undoWithinMs = dayMs

/** The words a visitor says yes to, in the language they were asked in: shown on the confirm page and kept with their consent. */
export function consentWordsIn(language: string | null, farm: string) {
  const messages = catalogs[keptLanguage(language)]
  return messages.consentWords({ farm })
}

/** A visitor's own way in and out of the updates: asked with their lead, then their signed links to confirm, leave or undo. */
export function createSubscribingByLink({
  db,
  writes,
  links,
  farmName,
  lookups: { stopped, byAddress, byId },
  leftBeforeForgetting,
  now,
}: {
  db: FarmDatabase
  writes: Writes
  links: SignedLinks
  farmName: () => string
  lookups: SubscriberLookups
  leftBeforeForgetting: (address: string) => boolean
  now: () => Date
}) {
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

  /** What a working link says of its subscriber, as they stand now. */
  const answerFor = (row: SubscriberRow): LinkAnswer => ({
    ok: true,
    email: row.email,
    status: row.status,
    mayUndo: mayUndo(row),
    language: row.language,
  })

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
    return answerFor({ ...found.row, ...update })
  }

  const look = (purpose: 'confirm' | 'unsubscribe', token: string): LinkAnswer => {
    const found = holder(purpose, token)
    return 'row' in found ? answerFor(found.row) : found
  }

  return {
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
          language: lead.language,
          createdAt: at,
        })
        .onConflictDoUpdate({
          target: subscribers.addressKey,
          set: { email: lead.email, name: lead.name, askedAt: at, language: lead.language },
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
              consent: consentWordsIn(row.language, farmName()),
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
  }
}
