import { and, asc, eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { replies, savedReplies, submissions } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { deliveryRecord } from '#app/delivery/record.server'
import { refuse, type Answer, type Refusal } from '#app/http/refusal.server'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Reply, Submission } from '#app/leads/lead'
import { mailboxKey } from '#app/leads/mailbox'
import { fillPlaceholders, productsInWords } from '#app/writing/placeholders'
import { oneLineBreak } from '#app/writing/writing'
import { replyLimits, replyTextError } from './reply'
import type { VisitorMails } from './reply-delivery.server'
import { newMessageId } from './reply-mail.server'
import { storedReply, submissionWithThread, tellThread, toReply, wholeThread } from './threads.server'

/** What the owner's replies are sent with. */
export interface ReplySendingNeeds {
  db: FarmDatabase
  events: SubmissionEvents
  writes: Writes
  farmName: () => string
  /** The address mails go out from now; its domain names their Message-IDs. */
  from: () => string
  /** Called once a mail is queued, so the sender looks at once. */
  visitorMails: VisitorMails
  now: () => Date
}

/** The owner's replies to a lead: sent, read back as its conversation, and a failed one tried again or set aside. */
export function createReplySending({ db, events, writes, farmName, from, visitorMails, now }: ReplySendingNeeds) {
  const tell = (submissionId: number) => tellThread(db, events, submissionId)

  /**
   * Inside the caller's transaction: the reply stored, its mail owed and the lead marked handled;
   * refused when the text cannot be sent or the conversation is full.
   */
  function storeIn(
    tx: FarmDatabase,
    lead: { id: number; email: string; status: string },
    words: string,
    {
      requestKey,
      by,
      mayStore = () => null,
    }: { requestKey: string | null; by: number | null; mayStore?: () => Refusal | null },
  ): Answer<{ replyId: number }> {
    const problem = replyTextError(words)
    if (problem) return refuse(400, problem)
    const thread = tx
      .select({ messageId: replies.messageId })
      .from(replies)
      .where(eq(replies.submissionId, lead.id))
      .orderBy(asc(replies.id))
      .all()
    if (thread.length >= replyLimits.perLead) {
      return refuse(
        409,
        `This conversation already has ${replyLimits.perLead} mails. Write to ${lead.email} from your own mailbox.`,
      )
    }
    const limited = mayStore()
    if (limited) return limited
    const at = now()
    const row = tx
      .insert(replies)
      .values({
        submissionId: lead.id,
        kind: 'reply',
        toAddress: lead.email,
        addressKey: mailboxKey(lead.email),
        text: words,
        messageId: newMessageId(from()),
        references: thread.length > 0 ? thread.map(({ messageId }) => messageId).join(' ') : null,
        createdAt: at,
        requestKey,
        sentBy: by,
      })
      .returning({ id: replies.id })
      .get()
    visitorMails.owe(tx, row.id, lead.id, at)
    if (lead.status !== 'handled') {
      tx.update(submissions).set({ status: 'handled' }).where(eq(submissions.id, lead.id)).run()
    }
    return { ok: true, replyId: row.id }
  }

  return {
    /**
     * Queues the owner's reply to a lead: its mail in the outbox and the lead marked handled, in
     * one transaction. A saved reply's text, filled in for the lead, stands in for a blank text
     * (how a form without JavaScript uses one). The same request key twice is the same reply.
     */
    async send({
      submissionId,
      text,
      savedReplyId,
      requestKey,
      by,
      mayStore = () => null,
    }: {
      submissionId: number
      text: string
      savedReplyId?: number
      requestKey?: string
      /** Who of the team writes it (null: an open inbox). */
      by: number | null
      /** Asked last, only when a new reply would be stored: the reply limit's say. */
      mayStore?: () => Refusal | null
    }): Promise<Answer<{ reply: Reply; submission: Submission; repeated: boolean }>> {
      const written = await writes.whenFree(() =>
        db.transaction((tx): Answer<{ replyId: number; repeated: boolean }> => {
          const lead = tx.select().from(submissions).where(eq(submissions.id, submissionId)).get()
          if (!lead) return refuse(404, `There is no submission ${submissionId}.`)
          if (requestKey) {
            const earlier = tx.select().from(replies).where(eq(replies.requestKey, requestKey)).get()
            if (earlier && earlier.submissionId === submissionId)
              return { ok: true, replyId: earlier.id, repeated: true }
            if (earlier) return refuse(409, 'That request key was used for a reply to another submission.')
          }
          if (lead.spamReasons) {
            return refuse(409, 'This message is in the spam folder. Mark it ‘Not spam’ before replying to it.')
          }
          let words = oneLineBreak(text)
          if (words.trim() === '' && savedReplyId !== undefined) {
            const saved = tx.select().from(savedReplies).where(eq(savedReplies.id, savedReplyId)).get()
            if (!saved) return refuse(404, 'That saved reply is no longer there.')
            words = fillPlaceholders(saved.text, {
              name: lead.name,
              farm: farmName(),
              products: productsInWords(lead.analysis?.products ?? []),
            })
          }
          const stored = storeIn(tx, lead, words, { requestKey: requestKey ?? null, by, mayStore })
          return stored.ok ? { ...stored, repeated: false } : stored
        }),
      )
      if (!written.ok) return written
      if (!written.repeated) visitorMails.queued()
      const submission = written.repeated ? submissionWithThread(db, submissionId)! : tell(submissionId)!
      const reply = toReply(storedReply(db, written.replyId)!, submission.email)
      return { ok: true, reply, submission, repeated: written.repeated }
    },

    /**
     * A mail to a lead stored and owed inside the caller's transaction, with what the caller
     * writes there (an order's confirmation and its stock); `told` once that is committed.
     */
    queueIn(tx: FarmDatabase, lead: { id: number; email: string; status: string }, text: string, by: number | null) {
      return storeIn(tx, lead, oneLineBreak(text), { requestKey: null, by })
    },

    /** After the commit of `queueIn`: the mail is looked at at once, and the card's thread told. */
    told(submissionId: number): Submission | null {
      visitorMails.queued()
      return tell(submissionId)
    },

    /** Every mail of a lead's conversation, oldest first; null when there is no such lead. */
    history(submissionId: number): Reply[] | null {
      const lead = db.select({ id: submissions.id }).from(submissions).where(eq(submissions.id, submissionId)).get()
      return lead ? wholeThread(db, submissionId) : null
    },

    /** A failed mail tried again from now, or set aside: either way the badge no longer counts it. */
    async settleFailed(
      submissionId: number,
      replyId: number,
      action: 'retry' | 'dismiss',
    ): Promise<Answer<{ reply: Reply; submission: Submission }>> {
      const mail = { kind: 'visitor-mail', replyId, submissionId } as const
      const record = deliveryRecord(db)
      const settled = await writes.whenFree(() =>
        action === 'retry' ? record.again(mail, now()) : record.setAside(mail, now()),
      )
      if (settled === 0) {
        const exists = db
          .select({ id: replies.id })
          .from(replies)
          .where(and(eq(replies.id, replyId), eq(replies.submissionId, submissionId)))
          .get()
        if (!exists) return refuse(404, `There is no reply ${replyId} to submission ${submissionId}.`)
        return refuse(409, 'Only a mail that failed can be tried again or dismissed.')
      }
      if (action === 'retry') visitorMails.queued()
      const submission = tell(submissionId)!
      return { ok: true, reply: toReply(storedReply(db, replyId)!, submission.email), submission }
    },
  }
}
