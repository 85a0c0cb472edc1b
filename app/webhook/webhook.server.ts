import { randomBytes } from 'node:crypto'
import type { FarmDatabase } from '#app/data/database.server'
import type { DeliveryRow, SubmissionRow } from '#app/data/schema'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import { owe } from '#app/delivery/record.server'
import { idsOf } from '#app/delivery/sender.server'
import { postSigned } from '#app/delivery/signed-post.server'
import { inArray } from 'drizzle-orm'
import { orderEvents } from '#app/data/schema'
import type { Submission } from '#app/leads/lead'
import { leadsAndAnswers } from '#app/leads/lead-view.server'
import type { Order } from '#app/leads/order'

/** Where each lead is posted (WEBHOOK_URL), the key it is signed with (WEBHOOK_SECRET), and whether spam goes too. */
export interface WebhookSettings {
  url: string
  key: Buffer
  includeSpam: boolean
}

const mostPerRound = 20

/** A visitor's answer to the farm's mail, posted as `lead.replied` with the lead it answers. */
function answerBody(
  lead: Submission,
  answer: { id: number; text: string; from: string; at: Date; tooLarge: boolean },
): string {
  const { id, name, email, message, createdAt, analysis } = lead
  return JSON.stringify({
    type: 'lead.replied',
    timestamp: answer.at.toISOString(),
    data: {
      lead: { id, name, email, message, createdAt, analysis },
      answer: {
        id: answer.id,
        text: answer.text,
        from: answer.from,
        writtenAt: answer.at.toISOString(),
        tooLarge: answer.tooLarge,
      },
    },
  })
}

/** What happened to an order (`order.confirmed`, `order.collected`…), with the order as it is now. */
function orderBody(event: { type: string; at: Date }, order: Order): string {
  return JSON.stringify({ type: event.type, timestamp: event.at.toISOString(), data: { order } })
}

/** What is posted for one lead: its view's own words, as `submission.created`. */
function webhookBody(lead: Submission): string {
  const { id, name, email, message, createdAt, analysis, spam } = lead
  return JSON.stringify({
    type: 'submission.created',
    timestamp: createdAt,
    data: { id, name, email, message, createdAt, analysis, spam: spam !== null },
  })
}

/**
 * The lead webhook: each lead (spam only with WEBHOOK_INCLUDE_SPAM) is owed one delivery, written
 * in the lead's own transaction, and posted from there, signed, until the endpoint answers 2xx;
 * anything else is tried again (NOTIFY_RETRY_SECONDS, doubling) for a day, with the same
 * `webhook-id` each time.
 */
export function createWebhook({
  engine,
  db,
  settings,
  retryBaseMs,
  orders,
}: {
  engine: DeliveryEngine
  db: FarmDatabase
  /** Orders as the webhook shows them (app/orders' one view), in the order of the ids. */
  orders: (ids: number[]) => Order[]
  /** The webhook now: null while none is set (what was owed waits for one). */
  settings: () => WebhookSettings | null
  /** The first retry waits this long (NOTIFY_RETRY_SECONDS, as the mail's), then twice as long each time. */
  retryBaseMs: number
}) {
  const { now } = engine

  /** The bodies of the rows about orders' events, by row id: each order read once. */
  function orderBodies(rows: DeliveryRow[]): Map<number, string> {
    const eventIds = idsOf(rows, 'orderEventId')
    if (eventIds.length === 0) return new Map()
    const events = db.select().from(orderEvents).where(inArray(orderEvents.id, eventIds)).all()
    const orderOf = new Map(
      orders([...new Set(events.map((event) => event.orderId))]).map((order) => [order.id, order]),
    )
    const bodies = new Map<number, string>()
    for (const row of rows) {
      const event = events.find((one) => one.id === row.orderEventId)
      const order = event && orderOf.get(event.orderId)
      if (event && order) bodies.set(row.id, orderBody(event, order))
    }
    return bodies
  }

  function batchesOf(rows: DeliveryRow[]) {
    if (rows.length === 0) return { batches: [] }
    const ofOrders = orderBodies(rows)
    const { leadOf, answerOf } = leadsAndAnswers(db, idsOf(rows, 'submissionId'), idsOf(rows, 'replyId'))
    const bodyOf = (row: DeliveryRow) => {
      if (row.orderEventId !== null) return ofOrders.get(row.id)
      const lead = leadOf(row.submissionId)
      if (!lead) return undefined
      const answer = answerOf(row.replyId)
      return answer
        ? answerBody(lead, {
            id: answer.id,
            text: answer.text,
            from: answer.toAddress,
            at: answer.createdAt,
            tooLarge: answer.tooLarge,
          })
        : webhookBody(lead)
    }
    return {
      batches: rows.flatMap((row) => {
        const body = bodyOf(row)
        return body === undefined ? [] : [{ rows: [row], item: body }]
      }),
    }
  }

  engine.deliver<string, WebhookSettings>({
    kind: 'webhook-post',
    name: 'webhook posts',
    setup: settings,
    retryBaseMs,
    mostRowsPerRound: () => mostPerRound,
    batchesOf,
    async send({ rows, item: body }, current) {
      const failure = await postSigned(current, rows[0]!.receiptKey!, body, now())
      return failure === null ? { sent: true } : { receiverDown: failure }
    },
    words: {
      later: 'could not post a lead to the webhook',
      refused: 'the webhook refused a lead',
      gaveUp: 'gave up posting to the webhook after a day of trying',
    },
  })

  /** One post owed about a lead, or (with `answerId`) about the visitor's answer; its id the same on every try. */
  const owePost = (submissionId: number, answerId: number | null, at: Date) =>
    owe(
      db,
      {
        kind: 'webhook-post',
        submissionId,
        replyId: answerId,
        receiptKey: `msg_${randomBytes(16).toString('base64url')}`,
      },
      at,
    )

  return {
    /** Inside the transaction that keeps a visitor's answer: posted as `lead.replied`. */
    queueAnswer(lead: SubmissionRow, answerId: number, at: Date): void {
      if (settings()) owePost(lead.id, answerId, at)
    },
    /**
     * Inside the transaction that keeps a lead (or reads it again): owes it one delivery once it
     * is read, never for spam unless WEBHOOK_INCLUDE_SPAM.
     */
    queueFor(row: SubmissionRow, at: Date): void {
      const current = settings()
      if (!current || row.reanalyseAt !== null || (row.spamReasons !== null && !current.includeSpam)) return
      owePost(row.id, null, at)
    },
  }
}

export type Webhook = ReturnType<typeof createWebhook>
