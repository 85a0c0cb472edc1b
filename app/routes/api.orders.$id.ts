import { json, type ActionFunctionArgs } from '@remix-run/node'
import * as z from 'zod/mini'
import { answeringJson, jsonError, readJsonAs } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { isSubmissionId } from '#app/leads/lead'
import { markRefusal, pickUpMarks } from '#app/orders/pick-ups'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'

export function loader() {
  return jsonError(405, 'Read orders from /api/orders; change one here with PATCH.', { Allow: 'PATCH' })
}

const orderChange = z.strictObject({ status: z.enum(pickUpMarks) })

/** The team marks an order collected or not collected: `200 {data}`, and every open pick-ups page shows it. */
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
      'Send {"status": "collected"} or {"status": "not-collected"}.',
    )
    if (!read.ok) return read.answer
    const marked = await context.orders.mark(Number(id), read.body.status, who.id)
    if (!marked.ok) return jsonError(marked.why === 'cancelled' ? 409 : 404, markRefusal(marked.why))
    return json({ data: marked.order }, { headers: ownerDataHeaders })
  })
}
