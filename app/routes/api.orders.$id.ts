import { json, type ActionFunctionArgs, type AppLoadContext } from '@remix-run/node'
import * as z from 'zod/mini'
import type { OrderStatus } from '#app/data/enums'
import { answeringJson, jsonError, readJsonAs } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { isSubmissionId } from '#app/leads/lead'
import { markRefusal, pickUpMarks } from '#app/orders/pick-ups'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'

export function loader() {
  return jsonError(405, 'Read orders from /api/orders; change one here with PATCH.', { Allow: 'PATCH' })
}

const orderChange = z.strictObject({ status: z.enum([...pickUpMarks, 'cancelled']) })

/**
 * The team marks an order collected or not collected, or cancels it (what it took goes back on the
 * list): `200 {data}`, and every open page shows it.
 */
export function action({ request, params, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['PATCH'])
    const { who } = await requirePermission(request, context, 'orders:work', { as: 'api', to: 'change orders' })
    const id = params.id ?? ''
    if (!isSubmissionId(id)) return jsonError(404, `There is no order ${id.slice(0, 40)}.`)
    const read = await readJsonAs(
      request,
      'the change',
      orderChange,
      'Send {"status": "collected"}, {"status": "not-collected"} or {"status": "cancelled"}.',
    )
    if (!read.ok) return read.answer
    if (read.body.status === 'cancelled') return cancelled(context, Number(id), who.id)
    const marked = await context.orders.mark(Number(id), read.body.status, who.id)
    if (!marked.ok) return jsonError(marked.why === 'cancelled' ? 409 : 404, markRefusal(marked.why))
    return json({ data: marked.order }, { headers: ownerDataHeaders })
  })
}

const notCancellable: Record<OrderStatus, string> = {
  confirmed: 'This order could not be cancelled: try again.',
  cancelled: 'This order is already cancelled.',
  collected: 'This order was collected: it cannot be cancelled now.',
  'not-collected': 'This order was marked not collected: it cannot be cancelled now.',
}

async function cancelled(context: AppLoadContext, id: number, by: number | null) {
  const done = await context.orders.cancel(id, by)
  if (done.outcome === 'cancelled') return json({ data: done.order }, { headers: ownerDataHeaders })
  if (done.outcome === 'not confirmed') return jsonError(409, notCancellable[done.status])
  return jsonError(404, markRefusal('no such order'))
}
