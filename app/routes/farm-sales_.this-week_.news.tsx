import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData } from '@remix-run/react'
import { CannotNote, OwnerPage } from '#app/components/owner-page'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { requirePermission } from '#app/owner/require-permission.server'
import { updatesDesk } from '#app/updates/update-requests.server'

export const meta: MetaFunction = () => [{ title: 'Ready to tell' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

/** The owner's Send of a product's news proposed on the updates page; nothing else sends it. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const { who } = await requirePermission(request, context, 'updates:send', { as: 'page', to: 'send updates' })
  const ready = updatesDesk(context)
  if (!ready.ok) return json({ error: ready.error }, { status: ready.status })
  const form = await request.formData().catch(() => new FormData())
  const fields = formTexts(form, ['product', 'subject', 'text'])
  if (!fields) return json({ error: notText }, { status: 400 })
  const sent = await context.week.tellMe.send(ready.desk, {
    ...fields,
    alsoAsked: form.get('alsoAsked') === 'yes',
    by: who.id,
  })
  if (!sent.ok) return json({ error: sent.error }, { status: sent.status })
  return redirect(`/farm-sales/updates?queued=${sent.updateId}`, 303)
}

/** Its page only says why a Send was refused; opened on its own, it says nothing was sent. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePermission(request, context, 'updates:send', { as: 'page', to: 'send updates' })
  return null
}

/** Why the news was not sent, with the way back. */
export default function NotSent() {
  const refused = useActionData<typeof action>()
  return (
    <OwnerPage title="Ready to tell">
      <CannotNote>{refused?.error ?? 'Nothing was sent.'}</CannotNote>
      <p className="mt-6">
        <Link to="/farm-sales/updates" className="font-semibold text-green-800 underline underline-offset-4">
          Back to the updates
        </Link>
      </p>
    </OwnerPage>
  )
}
