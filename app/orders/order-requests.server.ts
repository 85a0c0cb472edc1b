import { json, redirect, type AppLoadContext } from '@remix-run/node'
import { notText } from '#app/http/form-text.server'
import { requirePermission } from '#app/owner/require-permission.server'
import { sendReply, withinLimit } from '#app/replies/reply-requests.server'
import type { OrderAnswer, Ordering } from './order-answer'
import { readOrderForm, type OrderFields } from './order-form'

type Context = AppLoadContext

/** Every value of a repeated field, or null when one is a file. */
function texts(form: FormData, name: string): string[] | null {
  const values = form.getAll(name)
  return values.every((value) => typeof value === 'string') ? values : null
}

function orderFields(form: FormData): OrderFields | null {
  const [products, quantities, units, date, from, to] = ['product', 'quantity', 'unit', 'date', 'from', 'to'].map(
    (name) => texts(form, name),
  )
  if (!products || !quantities || !units || !date || !from || !to) return null
  if (date.length > 1 || from.length > 1 || to.length > 1) return null
  return { products, quantities, units, date: date[0] ?? '', from: from[0] ?? '', to: to[0] ?? '' }
}

/** PUBLIC_URL, else the address the team reached the site by: every link in a mail starts with it. */
const siteUrlOf = (request: Request, context: Context) =>
  context.settings.config.push.siteUrl ?? new URL(request.url).origin

/**
 * A card's order forms, with or without JavaScript (the same form, through a fetcher or posted):
 * draft the confirmation of the order as changed, confirm it (mailing the confirmation), or
 * decline it with words, sent as a reply. Only the team may, signed in, with mail set up.
 */
export async function answerOrderForm(
  request: Request,
  context: Context,
  form: FormData,
  { id, intent }: { id: number; intent: string },
) {
  const answer = (status: number, error: string | null, draft: OrderAnswer['draft'] = null) =>
    json({ orderAnswer: { id, draft, error } satisfies OrderAnswer }, { status })
  const door = await requirePermission(request, context, 'orders:work', {
    as: 'page',
    to: 'confirm or decline orders',
    showCannot: true,
  })
  const cannot = door.cannot ?? context.cannotReply
  if (cannot) return answer(403, cannot)
  const back = () => redirect(`/farm-sales${new URL(request.url).search}#submission-${id}`, 303)
  const text = texts(form, 'text')
  if (!text || text.length > 1) return answer(400, notText)
  if (intent === 'order-decline') {
    const sent = await sendReply(context, { submissionId: id, text: text[0] ?? '' }, door.who)
    return sent.ok ? back() : answer(sent.status, sent.error)
  }
  const fields = orderFields(form)
  if (!fields) return answer(400, notText)
  const read = readOrderForm(
    fields,
    context.week.list.all().map((item) => item.product),
    context.orderConfirming.today(),
  )
  if (!read.ok) return answer(400, read.error)
  const drafted = context.orderConfirming.draft(id, read.value, context.farm.name)
  if (!drafted.ok) return answer(drafted.status, drafted.error)
  if (intent === 'order-draft') return answer(200, null, drafted.draft)
  const total = texts(form, 'total')
  if (!total || total.length > 1 || !/^\d{0,9}$/.test(total[0] ?? '')) return answer(400, notText)
  const limited = withinLimit(context, door.who)
  if (limited) return answer(limited.status, limited.error, { ...drafted.draft, text: text[0] ?? '' })
  const confirmed = await context.orderConfirming.confirm({
    leadId: id,
    asked: read.value,
    text: text[0] ?? '',
    by: door.who.id,
    siteUrl: siteUrlOf(request, context),
    // The draft's form says its total ('' for none); a form without it is checked by its words alone.
    draftedTotalCents: total[0] === undefined ? undefined : total[0] === '' ? null : Number(total[0]),
  })
  // Refused, the draft comes back as the team wrote it, with why.
  return confirmed.ok ? back() : answer(confirmed.status, confirmed.error, { ...drafted.draft, text: text[0] ?? '' })
}

/** What the cards of a page of leads need to show and work their orders. */
export async function orderingFor(request: Request, context: Context, leadIds: number[]): Promise<Ordering> {
  const { cannot } = await requirePermission(request, context, 'orders:work', {
    as: 'page',
    to: 'confirm or decline orders',
    showCannot: true,
  })
  return {
    ...context.orderConfirming.forCards(leadIds),
    cannotConfirm: cannot ?? context.cannotReply,
    tellMeBase: context.updates ? `${siteUrlOf(request, context)}/this-week/tell-me` : null,
    farmName: context.farm.name,
  }
}
