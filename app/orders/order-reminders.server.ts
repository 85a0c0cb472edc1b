import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { orders, replies } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { dayStart, wallClock } from '#app/clock/farm-clock'
import { mailboxKey } from '#app/leads/mailbox'
import type { Order } from '#app/leads/order'
import type { Log } from '#app/log'
import type { VisitorMails } from '#app/replies/reply-delivery.server'
import { newMessageId } from '#app/replies/reply-mail.server'
import { cancelUntil } from './cut-off'
import { readOrders } from './order-view.server'
import { farmDate, lineWords, momentWords, moneyWords, pickUpWords } from './order-words'

// Looked for this often; a restart looks at once.
const lookEveryMs = 10 * 60 * 1000
// One round reminds at most this many; the next round the rest.
const mostPerRound = 200

/** What a reminder says, with the settings of the moment. */
export interface ReminderSettings {
  farmName: string
  timeZone: string
  from: string
  /** The farm's address, as its page gives it ('' when not written). */
  address: string
  cancelHoursBefore: number
  /** The order's link; null while PUBLIC_URL is not set. */
  link: ((orderId: number) => string) | null
}

/** The reminder's words: what, when, where, pay at pick-up, and the order's link. */
export function reminderText(order: Order, settings: ReminderSettings, now: number): string {
  const until = cancelUntil(order.pickUp.date, settings.cancelHoursBefore, settings.timeZone)
  const lines = order.lines.map(
    (line) => `- ${lineWords(line)}${line.priceCents === null ? '' : `: ${moneyWords(line.priceCents)}`}`,
  )
  const total =
    order.totalCents === null ? 'Pay at pick-up.' : `Total ${moneyWords(order.totalCents)}, paid at pick-up.`
  const link = settings.link?.(order.id)
  return [
    `Hello ${order.name},`,
    '',
    `A reminder: your order from ${settings.farmName} is ready to pick up tomorrow, ${pickUpWords(order.pickUp)}.`,
    '',
    ...lines,
    total,
    ...(settings.address ? ['', `Where: ${settings.address.replace(/\s*\n\s*/g, ', ')}`] : []),
    ...(link
      ? [
          '',
          now < until
            ? `To see your order, or cancel it until ${momentWords(until, settings.timeZone)}: ${link}`
            : `To see your order: ${link}`,
        ]
      : []),
    '',
    settings.farmName,
  ].join('\n')
}

/**
 * With ORDER_REMINDERS on, each confirmed order picked up tomorrow (on the farm's clock) and
 * confirmed before today gets one reminder mail, through the engine as a mail in its lead's thread.
 * Once an order, across restarts too: the reminder's request key is the order's.
 */
export function startOrderReminders({
  db,
  writes,
  visitorMails,
  settings,
  now = Date.now,
  log,
}: {
  db: FarmDatabase
  writes: Writes
  visitorMails: VisitorMails
  /** Null while reminders are off (or no mail is sent). */
  settings: () => ReminderSettings | null
  now?: () => number
  log: Log
}) {
  // The reminder's request key is its order's: `order-reminder.12`.
  const keyOf = (orderId: number) => `order-reminder.${orderId}`

  function remindTomorrows(current: ReminderSettings, at: number): number {
    const today = wallClock(at, current.timeZone).dayNumber
    const tomorrow = farmDate(dayStart(today + 1, current.timeZone), current.timeZone)
    const due = db
      .select({ id: orders.id })
      .from(orders)
      .leftJoin(replies, eq(replies.requestKey, sql`'order-reminder.' || ${orders.id}`))
      .where(
        and(
          isNull(replies.id),
          eq(orders.status, 'confirmed'),
          eq(orders.pickUpDate, tomorrow),
          lt(orders.confirmedAt, new Date(dayStart(today, current.timeZone))),
        ),
      )
      .orderBy(asc(orders.id))
      .limit(mostPerRound)
      .all()
    let reminded = 0
    for (const order of readOrders(
      db,
      due.map(({ id }) => id),
    ).slice(0, mostPerRound)) {
      db.transaction((tx) => {
        const row = tx
          .insert(replies)
          .values({
            submissionId: order.leadId,
            kind: 'reply',
            toAddress: order.email,
            addressKey: mailboxKey(order.email),
            text: reminderText(order, current, at),
            messageId: newMessageId(current.from),
            createdAt: new Date(at),
            requestKey: keyOf(order.id),
          })
          .onConflictDoNothing()
          .returning({ id: replies.id })
          .get()
        if (!row) return
        visitorMails.owe(tx, row.id, order.leadId, new Date(at))
        reminded += 1
      })
    }
    return reminded
  }

  async function look() {
    const current = settings()
    if (!current) return
    try {
      const reminded = await writes.whenFree(() => remindTomorrows(current, now()))
      if (reminded > 0) {
        log.info({ reminded }, 'reminded visitors of their orders picked up tomorrow')
        visitorMails.queued()
      }
    } catch (error) {
      log.error({ err: error }, 'could not remind visitors of their orders')
    }
  }

  void look()
  const timer = setInterval(() => void look(), lookEveryMs)
  timer.unref()
  return {
    /** Looks now: after a change of settings. */
    look,
    stop: () => clearInterval(timer),
  }
}
