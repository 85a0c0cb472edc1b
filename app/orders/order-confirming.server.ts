import { and, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm'
import { wallClock } from '#app/clock/farm-clock'
import type { FarmDatabase } from '#app/data/database.server'
import { idAboveEveryOneGiven } from '#app/data/highest-ids'
import { orderLines, orders, submissions, weekList } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { refuse, type Answer, type Refusal } from '#app/http/refusal.server'
import type { Order } from '#app/leads/order'
import type { Replies } from '#app/replies/replies.server'
import type { WeekList } from '#app/this-week/week-list.server'
import type { OrderAsked } from './order-form'
import { recordOrderEvent } from './order-events.server'
import { createOrderLinks } from './order-links.server'
import { capitalised, productIs, stockSlack } from '#app/this-week/week'
import { priceOrder, type ListedProduct } from './order-pricing'
import { lineWords, moneyWords } from './order-words'
import { readOrders } from './order-view.server'
import type { OrderDraft } from './order-answer'
import { draftConfirmation, orderLinkPlaceholder, totalTold, type PickUpPlace } from './order-drafts'

const dayMs = 24 * 60 * 60 * 1000

/** Thrown inside the transaction to undo it: the refusal is the answer. */
class Undone extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.error)
  }
}

/** Why a line cannot be confirmed as it is now on the list, or null. */
function lineRefusal(line: ReturnType<typeof priceOrder>['lines'][number], listed: ListedProduct | undefined) {
  const what = capitalised(lineWords(line))
  const product = capitalised(productIs(line.product))
  if (line.problem === 'not-on-list') return `${product} not on this week’s list.`
  if (line.problem === 'sold-out') return `${product} sold out: change the order or decline it.`
  if (line.problem === 'not-for-sale') return `${product} not for sale this week: change the order or decline it.`
  if (line.problem === 'not-enough') return `${what}: ${line.note}. Change the order or decline it.`
  if (listed?.stock != null && line.inListUnits === null) {
    return `${what}: ${line.product} is counted ${listed.unit || 'each'} on the list; write the line in that unit.`
  }
  return null
}

const totalWords = (cents: number | null) => (cents === null ? 'no total' : moneyWords(cents))

/**
 * Why the total the order would be kept with is not the one the team read and the visitor is told:
 * the list's prices changed since the draft (`drafted`, from the form), or the words say another.
 */
function totalRefusal(totalCents: number | null, drafted: number | null | undefined, text: string) {
  if (drafted !== undefined && drafted !== totalCents) {
    return `This week’s prices changed since the confirmation was drafted: the order comes to ${totalWords(totalCents)} now, not ${totalWords(drafted)}. Nothing was sent: draft the confirmation again.`
  }
  const told = totalTold(text)
  if (told !== undefined && told !== totalCents) {
    return `The confirmation says Total: ${moneyWords(told)}, but the order comes to ${totalWords(totalCents)} at this week’s prices. Nothing was sent: draft the confirmation again.`
  }
  return null
}

/**
 * Confirming an order read from a lead: in one transaction the order and its lines are stored,
 * priced from this week's list as it is then, the stock taken (one conditional UPDATE a line, so
 * two people confirming at once never take it below zero), its event recorded, and the
 * confirmation owed to the visitor as a reply in the lead's thread. Told once committed.
 */
export function createOrderConfirming({
  db,
  writes,
  replies,
  list,
  timeZone,
  place,
  told,
  now = () => new Date(),
}: {
  db: FarmDatabase
  writes: Writes
  replies: Pick<Replies, 'queueIn' | 'told'>
  list: Pick<WeekList, 'all'>
  timeZone: () => string
  /** Where the farm is and its hours on a day, from its page (null: it gives none). */
  place: () => PickUpPlace & { hoursOn: (date: string) => { opens: string; closes: string } | 'closed' | null }
  /** After the commit: every open page is told, and the webhook's post is sent (orders.server.ts). */
  told: (orderId: number) => Order | null
  now?: () => Date
}) {
  function store(
    tx: FarmDatabase,
    leadId: number,
    asked: OrderAsked,
    text: string,
    by: number | null,
    siteUrl: string,
    draftedTotalCents: number | null | undefined,
  ) {
    const lead = tx.select().from(submissions).where(eq(submissions.id, leadId)).get()
    if (!lead) throw new Undone(refuse(404, 'That lead is no longer here.'))
    if (lead.spamReasons) throw new Undone(refuse(409, 'This message is in the spam folder: mark it ‘Not spam’ first.'))
    const earlier = tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.submissionId, leadId), eq(orders.status, 'confirmed')))
      .get()
    if (earlier) throw new Undone(refuse(409, 'This order is already confirmed: the card shows it.'))
    // Read inside the transaction: the list as it is when the order is taken.
    const listed = list.all()
    const priced = priceOrder(asked.lines, listed)
    for (const line of priced.lines) {
      const problem = lineRefusal(
        line,
        listed.find((item) => item.product === line.product),
      )
      if (problem) throw new Undone(refuse(409, problem))
    }
    const wrongTotal = totalRefusal(priced.totalCents, draftedTotalCents, text)
    if (wrongTotal) throw new Undone(refuse(409, wrongTotal))
    const at = now()
    const order = tx
      .insert(orders)
      .values({
        id: idAboveEveryOneGiven(orders, orders.id, 'orders'),
        submissionId: leadId,
        pickUpDate: asked.pickUp.date,
        pickUpFrom: asked.pickUp.from,
        pickUpTo: asked.pickUp.to,
        totalCents: priced.totalCents,
        confirmedAt: at,
        confirmedBy: by,
        changedAt: at,
        changedBy: by,
      })
      .returning({ id: orders.id })
      .get()
    for (const [position, line] of priced.lines.entries()) {
      const counted = listed.find((item) => item.product === line.product)!.stock !== null
      const stockTaken = counted ? line.inListUnits : null
      if (stockTaken !== null) takeStock(tx, line.product, stockTaken, lineWords(line))
      tx.insert(orderLines)
        .values({ orderId: order.id, position, ...pick(line), stockTaken, priceCents: line.priceCents })
        .run()
    }
    recordOrderEvent(tx, { orderId: order.id, type: 'order.confirmed', at, by })
    const link = createOrderLinks({ db: tx, publicUrl: () => siteUrl }).url(order.id)
    const words = text.includes(orderLinkPlaceholder)
      ? text.replaceAll(orderLinkPlaceholder, link)
      : `${text.trimEnd()}\n\nYour order: ${link}`
    const mailed = replies.queueIn(tx, lead, words, by)
    if (!mailed.ok) throw new Undone(mailed)
    return order.id
  }

  /**
   * One conditional UPDATE: it takes only while enough is left, whoever else takes at the same time,
   * within the slack priceLine checks with; what is left within it is none, so the product is sold out.
   */
  function takeStock(tx: FarmDatabase, product: string, amount: number, what: string) {
    const left = sql`${weekList.stock} - ${amount}`
    const taken = tx
      .update(weekList)
      .set({ stock: sql`CASE WHEN ${left} < ${stockSlack} THEN 0 ELSE round(${left}, 6) END` })
      .where(and(eq(weekList.product, product), isNotNull(weekList.stock), gte(weekList.stock, amount - stockSlack)))
      .run()
    if (taken.changes === 0) {
      throw new Undone(
        refuse(409, `${capitalised(what)}: not enough left, someone took it first. Change the order or decline it.`),
      )
    }
  }

  /** The farm's today, on its calendar: no pick-up before it. */
  const today = () => new Date(wallClock(now().getTime(), timeZone()).dayNumber * dayMs).toISOString().slice(0, 10)

  return {
    today,

    /**
     * The confirmation drafted for the order as the team changed it: priced from the list now,
     * picked up in the farm's opening hours of that day when no time was said.
     */
    draft(leadId: number, asked: OrderAsked, farmName: string): Answer<{ draft: OrderDraft }> {
      const lead = db.select().from(submissions).where(eq(submissions.id, leadId)).get()
      if (!lead) return refuse(404, 'That lead is no longer here.')
      const where = place()
      const hours = where.hoursOn(asked.pickUp.date)
      const pickUp =
        asked.pickUp.from === null && hours !== null && hours !== 'closed'
          ? { ...asked.pickUp, from: hours.opens, to: hours.closes }
          : asked.pickUp
      const priced = priceOrder(asked.lines, list.all())
      const text = draftConfirmation({ name: lead.name, ...priced, pickUp, place: where, farmName })
      return {
        ok: true,
        draft: { leadId, lines: priced.lines, totalCents: priced.totalCents, pickUp, closed: hours === 'closed', text },
      }
    },

    /** Confirms the order as the team changed it, mailing `text` (its `{order link}` filled in) to the visitor. */
    async confirm(input: {
      leadId: number
      asked: OrderAsked
      text: string
      by: number | null
      /** PUBLIC_URL, else the address the team uses: the order's link starts with it. */
      siteUrl: string
      /** The total of the draft the team read, when the form says it. */
      draftedTotalCents?: number | null
    }): Promise<Answer<{ order: Order }>> {
      let orderId: number
      try {
        orderId = await writes.whenFree(() =>
          db.transaction((tx) =>
            store(tx, input.leadId, input.asked, input.text, input.by, input.siteUrl, input.draftedTotalCents),
          ),
        )
      } catch (error) {
        if (error instanceof Undone) return error.refusal
        throw error
      }
      replies.told(input.leadId)
      return { ok: true, order: told(orderId)! }
    },

    /** What the cards of these leads price their orders with, and the orders they already have. */
    forCards(leadIds: number[]) {
      return {
        list: list.all().map(({ changedAt: _, ...item }) => item),
        orders: ofLeads(leadIds),
        today: today(),
      }
    },
  }

  /** The latest order of each of these leads. */
  function ofLeads(leadIds: number[]): Record<number, Order> {
    if (leadIds.length === 0) return {}
    const rows = db
      .select({ id: orders.id, leadId: orders.submissionId })
      .from(orders)
      .where(inArray(orders.submissionId, leadIds))
      .orderBy(desc(orders.id))
      .all()
    const latest = new Map<number, number>()
    for (const row of rows) if (!latest.has(row.leadId)) latest.set(row.leadId, row.id)
    return Object.fromEntries(readOrders(db, [...latest.values()]).map((order) => [order.leadId, order]))
  }
}

const pick = ({ product, quantity, unit }: { product: string; quantity: number; unit: string }) => ({
  product,
  quantity,
  unit,
})

export type OrderConfirming = ReturnType<typeof createOrderConfirming>
