import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError, readJsonBody } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { refusalAnswer } from '#app/http/refusal.server'
import { readAudience, requireUpdatesOwner, sendUpdate } from '#app/updates/update-requests.server'

/** The latest updates' reports, newest first. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    const { desk } = await requireUpdatesOwner(request, context, 'read the updates')
    return json({ data: desk.updates.reports() }, { headers: ownerDataHeaders })
  })
}

/**
 * Sends an update: `{"subject", "text", "products"?, "intents"?}` → 202 `{id, recipients}` once it
 * and its mails are queued. The same Idempotency-Key again answers the same update, queuing nothing.
 */
export function action({ request, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['POST'])
    const { who } = await requireUpdatesOwner(request, context, 'send updates')
    const read = await readJsonBody(request, 'the update')
    if (!read.ok) return read.answer
    const body = read.body as { subject?: unknown; text?: unknown; products?: unknown; intents?: unknown } | null
    const audience = body && typeof body === 'object' ? readAudience(body.products, body.intents) : null
    if (!body || typeof body.subject !== 'string' || typeof body.text !== 'string' || !audience) {
      return jsonError(400, 'Send the update as {"subject": "…", "text": "…", "products": […], "intents": […]}.')
    }
    const key = request.headers.get('Idempotency-Key')
    const sent = await sendUpdate(
      context,
      { subject: body.subject, text: body.text, audience, ...(key === null ? {} : { requestKey: key }) },
      who,
    )
    if (!sent.ok) return refusalAnswer(sent)
    return json({ id: sent.update.id, recipients: sent.update.recipients }, { status: 202, headers: ownerDataHeaders })
  })
}
