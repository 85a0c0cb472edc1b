import { and, asc, inArray, sql } from 'drizzle-orm'
import type { DeliveryKind } from '#app/data/enums'
import type { FarmDatabase } from '#app/data/database.server'
import {
  orderEvents,
  orderLines,
  orders,
  productNews,
  productWaits,
  replies,
  returnedMails,
  subscribers,
  submissions,
  updates,
  type SubmissionRow,
  type SubscriberRow,
} from '#app/data/schema'
import { owedAbout, updateMailsTo, visitorMailsOf } from '#app/delivery/reads.server'
import { leadView } from '#app/leads/lead-view.server'
import { leadPushMessage } from '#app/push/push-message'
import { mailboxOf, sentBy, subscribedAs, theirAnswers } from './person-rows.server'

const iso = (date: Date | null) => date?.toISOString() ?? null

/** An answer read back from their mailbox, as their export gives it. */
const answerOf = (mail: typeof replies.$inferSelect) => ({
  kind: mail.kind,
  from: mail.toAddress,
  text: mail.text,
  attachments: mail.attachments ?? [],
  writtenAt: iso(mail.createdAt),
  messageId: mail.messageId,
})

/** The orders the team confirmed from their submissions, with their lines and what happened to each. */
function ordersOf(db: FarmDatabase, submissionIds: number[]) {
  if (submissionIds.length === 0) return () => []
  const kept = db.select().from(orders).where(inArray(orders.submissionId, submissionIds)).orderBy(asc(orders.id)).all()
  const ids = kept.map((order) => order.id)
  const lines = ids.length
    ? db.select().from(orderLines).where(inArray(orderLines.orderId, ids)).orderBy(asc(orderLines.position)).all()
    : []
  const events = ids.length
    ? db.select().from(orderEvents).where(inArray(orderEvents.orderId, ids)).orderBy(asc(orderEvents.id)).all()
    : []
  return (submissionId: number) =>
    kept
      .filter((order) => order.submissionId === submissionId)
      .map((order) => ({
        id: order.id,
        status: order.status,
        pickUp: { date: order.pickUpDate, from: order.pickUpFrom, to: order.pickUpTo },
        lines: lines
          .filter((line) => line.orderId === order.id)
          .map(({ product, quantity, unit, priceCents }) => ({ product, quantity, unit, priceCents })),
        totalCents: order.totalCents,
        confirmedAt: iso(order.confirmedAt),
        history: events.filter((event) => event.orderId === order.id).map(({ type, at }) => ({ type, at: iso(at) })),
      }))
}

/** All a person sent and all that was sent to them or about them, to give them on request. */
export function createPersonExport({
  db,
  siteUrl,
  now,
}: {
  db: FarmDatabase
  siteUrl: () => string | null
  now: () => number
}) {
  /** Their submissions, each with the mails to them and from them, and the owner's mails, posts and pushes of it. */
  function submissionsOf(sent: SubmissionRow[]) {
    const ids = sent.map((row) => row.id)
    const bySubmission =
      <T extends { submissionId: number }>(rows: T[]) =>
      (id: number) =>
        rows.filter((row) => row.submissionId === id)
    const mails = ids.length
      ? db.select().from(replies).where(inArray(replies.submissionId, ids)).orderBy(asc(replies.id)).all()
      : []
    const delivered = visitorMailsOf(
      db,
      mails.map((mail) => mail.id),
    )
    const mailsTo = bySubmission(mails.map((mail) => ({ ...mail, delivery: delivered.get(mail.id) ?? null })))
    const owed = owedAbout(db, ids).map((row) => ({ ...row, submissionId: row.submissionId! }))
    const ofKind = (kind: DeliveryKind) => bySubmission(owed.filter((row) => row.kind === kind))
    const ownerMails = ofKind('owner-mail')
    const posts = ofKind('webhook-post')
    const pushes = ofKind('push')
    const ordersFrom = ordersOf(db, ids)
    return sent.map(leadView).map((lead) => ({
      id: lead.id,
      name: lead.name,
      email: lead.email,
      message: lead.message,
      createdAt: lead.createdAt,
      status: lead.status,
      spam: lead.spam,
      summary: lead.aiResponse,
      analysis: lead.analysis,
      orders: ordersFrom(lead.id),
      mailsToThem: mailsTo(lead.id)
        .filter((mail) => mail.delivery !== null)
        .map((mail) => ({
          kind: mail.kind,
          to: mail.toAddress,
          text: mail.text,
          status: mail.delivery!.state,
          messageId: mail.messageId,
          queuedAt: iso(mail.delivery!.createdAt),
          sentAt: iso(mail.delivery!.sentAt),
          lastError: mail.delivery!.lastError,
        })),
      answersFromThem: mailsTo(lead.id)
        .filter((mail) => mail.delivery === null)
        .map(answerOf),
      mailsToTheOwner: ownerMails(lead.id).map((mail) => ({
        status: mail.state,
        createdAt: iso(mail.createdAt),
        sentAt: iso(mail.sentAt),
      })),
      webhookPosts: posts(lead.id).map((post) => ({
        webhookId: post.receiptKey,
        status: post.state,
        createdAt: iso(post.createdAt),
        sentAt: iso(post.sentAt),
      })),
      pushesToTheOwnersPhones: pushes(lead.id).map((push) => ({
        status: push.state,
        createdAt: iso(push.createdAt),
        sentAt: iso(push.sentAt),
        payload: leadPushMessage(lead, siteUrl()),
      })),
    }))
  }

  /** Each update mailed to a subscriber, oldest first. */
  function updatesMailedTo(subscriberId: number) {
    const mails = updateMailsTo(db, subscriberId)
    const subjects = new Map(
      mails.length
        ? db
            .select({ id: updates.id, subject: updates.subject })
            .from(updates)
            .where(
              inArray(
                updates.id,
                mails.map((mail) => mail.updateId!),
              ),
            )
            .all()
            .map((update) => [update.id, update.subject])
        : [],
    )
    return mails.flatMap((mail) => {
      const subject = subjects.get(mail.updateId!)
      return subject === undefined
        ? []
        : [{ subject, status: mail.state, sentAt: iso(mail.sentAt), lastError: mail.lastError }]
    })
  }

  /** Their subscription to the updates, with each update mailed to them. */
  function subscriptionOf(subscriber: SubscriberRow) {
    return {
      email: subscriber.email,
      name: subscriber.name,
      status: subscriber.status,
      consent: subscriber.consent,
      addedBy: subscriber.addedBy,
      askedAt: iso(subscriber.askedAt),
      subscribedAt: iso(subscriber.subscribedAt),
      unsubscribedAt: iso(subscriber.unsubscribedAt),
      unsubscribedBy: subscriber.unsubscribedBy,
      lastError: subscriber.lastError,
      updatesMailed: updatesMailedTo(subscriber.id),
    }
  }

  /** All they sent and all that was sent to them or about them, or null when the site holds nothing. */
  return function exportOf(given: string) {
    const address = given.trim()
    const sent = db.select().from(submissions).where(sentBy(address)).orderBy(asc(submissions.id)).all()
    const subscriber = db.select().from(subscribers).where(subscribedAs(address)).get()
    const returned = db
      .select()
      .from(returnedMails)
      .where(inArray(returnedMails.addressKey, mailboxOf(address)))
      .orderBy(asc(returnedMails.id))
      .all()
    // Answers they wrote on another's lead (from another address of the conversation).
    const answersElsewhere = db
      .select()
      .from(replies)
      .where(
        and(
          theirAnswers(address),
          sql`${replies.submissionId} NOT IN (SELECT id FROM ${submissions} WHERE ${sentBy(address)})`,
        ),
      )
      .orderBy(asc(replies.id))
      .all()
    const mailbox = mailboxOf(address)
    const waits = db.select().from(productWaits).where(inArray(productWaits.addressKey, mailbox)).all()
    const told = db.select().from(productNews).where(inArray(productNews.addressKey, mailbox)).all()
    if (
      sent.length === 0 &&
      !subscriber &&
      returned.length === 0 &&
      answersElsewhere.length === 0 &&
      waits.length === 0
    )
      return null
    return {
      email: address,
      exportedAt: new Date(now()).toISOString(),
      submissions: submissionsOf(sent),
      answersOnOtherLeads: answersElsewhere.map(answerOf),
      mailsThatCameBack: returned.map((mail) => ({
        kind: mail.kind,
        address: mail.address,
        permanent: mail.permanent,
        status: mail.status,
        words: mail.words,
        receivedAt: iso(mail.receivedAt),
        asItCame: mail.source,
      })),
      subscription: subscriber ? subscriptionOf(subscriber) : null,
      // 'Tell me when it's ready': what they wait for, and the news of it they were sent.
      waitingFor: waits.map((wait) => ({ product: wait.product, email: wait.email, askedAt: iso(wait.askedAt) })),
      toldReady: told.map((news) => ({ product: news.product, season: news.season, toldAt: iso(news.toldAt) })),
    }
  }
}
