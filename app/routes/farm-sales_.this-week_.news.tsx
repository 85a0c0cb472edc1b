import { json, redirect, type ActionFunctionArgs } from '@remix-run/node'
import { formTexts, notText } from '#app/http/form-text.server'
import { requireMethod } from '#app/http/require-method.server'
import { refusalAnswer } from '#app/http/refusal.server'
import { requirePermission } from '#app/owner/require-permission.server'
import { updatesDesk } from '#app/updates/update-requests.server'

/** The owner's Send of a product's news proposed on the updates page; nothing else sends it. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const { who } = await requirePermission(request, context, 'updates:send', { as: 'page', to: 'send updates' })
  const ready = updatesDesk(context)
  if (!ready.ok) return refusalAnswer(ready)
  const form = await request.formData().catch(() => new FormData())
  const fields = formTexts(form, ['product', 'subject', 'text'])
  if (!fields) return json({ error: notText }, { status: 400 })
  const sent = await context.week.tellMe.send(ready.desk, {
    ...fields,
    alsoAsked: form.get('alsoAsked') === 'yes',
    by: who.id,
  })
  if (!sent.ok) return refusalAnswer(sent)
  return redirect(`/farm-sales/updates?queued=${sent.updateId}`, 303)
}

export const loader = () => redirect('/farm-sales/updates', 303)
