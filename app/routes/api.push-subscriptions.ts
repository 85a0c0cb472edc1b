import { json, type ActionFunctionArgs } from '@remix-run/node'
import { answeringJson, asResponse, jsonError, parseJsonBody, requestBytes } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { pushLimits } from '#app/push/push-message'
import { requirePermission } from '#app/owner/require-permission.server'
import { readPushSubscription, stoppingSchema } from '#app/push/push-subscription.server'

/**
 * The owner's phones: POST a browser's PushSubscription JSON to be told of each lead there (201,
 * or 200 when it was known), DELETE `{"endpoint"}` to stop (204). At most 20 phones (409 past that).
 */
export function action({ request, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['POST', 'DELETE'])
    const { who } = await requirePermission(request, context, 'phone:notify', { as: 'api', to: 'be notified of leads' })
    // The guard found notifications on, so someone can sign in: whoever passed is a person of the team.
    const phones = context.push!
    const memberId = who.id!
    const bytes = await requestBytes(request)
    if (bytes.length > pushLimits.subscriptionBytes) {
      return jsonError(400, `A push subscription is at most ${pushLimits.subscriptionBytes} bytes of JSON.`)
    }
    const read = parseJsonBody(request.headers.get('Content-Type'), bytes, 'the push subscription')
    if (!read.ok) return asResponse(read.answer)
    if (request.method === 'DELETE') {
      const stopping = stoppingSchema.safeParse(read.body)
      if (!stopping.success) return jsonError(400, 'Send {"endpoint": "…"} of the phone to stop notifying.')
      const { endpoint } = stopping.data
      let address: string
      try {
        address = new URL(endpoint).href
      } catch {
        return jsonError(400, 'The endpoint is not a web address.')
      }
      if (!(await phones.unsubscribe(address))) return jsonError(404, 'No phone is notified at that endpoint.')
      return new Response(null, { status: 204, headers: ownerDataHeaders })
    }
    const subscription = readPushSubscription(read.body, phones.hosts)
    if (!subscription.ok) return jsonError(400, subscription.error)
    const kept = await phones.subscribe(subscription.subscription, memberId)
    if (kept === 'full') {
      return jsonError(
        409,
        `${pushLimits.subscriptions} phones are notified already: turn one off before adding another.`,
      )
    }
    return json({ notifying: true }, { status: kept === 'added' ? 201 : 200, headers: ownerDataHeaders })
  })
}

/** Nothing to read here: a GET or HEAD meets the action's method guard, 405 with Allow. */
export const loader = action
