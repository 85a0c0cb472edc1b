import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, readJsonAs } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { refusalAnswer } from '#app/http/refusal.server'
import { sendUpdate, updateSchema } from '#app/updates/update-requests.server'

/** The latest updates' reports, newest first. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    await requirePermission(request, context, 'updates:send', { as: 'api', to: 'read the updates' })
    // The guard found updates on.
    const desk = context.updates!
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
    const { who } = await requirePermission(request, context, 'updates:send', { as: 'api', to: 'send updates' })
    const read = await readJsonAs(
      request,
      'the update',
      updateSchema,
      'Send the update as {"subject": "…", "text": "…", "products": […], "intents": […]}.',
    )
    if (!read.ok) return read.answer
    const { subject, text, products, intents } = read.body
    const key = request.headers.get('Idempotency-Key')
    const sent = await sendUpdate(
      context,
      { subject, text, audience: { products, intents }, ...(key === null ? {} : { requestKey: key }) },
      who,
    )
    if (!sent.ok) return refusalAnswer(sent)
    return json({ id: sent.update.id, recipients: sent.update.recipients }, { status: 202, headers: ownerDataHeaders })
  })
}
