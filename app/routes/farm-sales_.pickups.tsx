import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useRevalidator } from '@remix-run/react'
import { useCallback } from 'react'
import { OwnerPage } from '#app/components/owner-page'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import type { LiveMessage } from '#app/live/messages'
import { useLiveSubmissions } from '#app/live/use-live-submissions'
import { isSubmissionId } from '#app/leads/lead'
import { isPickUpMark, markRefusal, readPickUpView } from '#app/orders/pick-ups'
import { PickUpsView } from '#app/orders/pick-ups-view'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { mayPass } from '#app/owner/permissions'
import { requirePermission } from '#app/owner/require-permission.server'

export const meta: MetaFunction = () => [{ title: 'Pick-ups' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

/** Today's or this week's confirmed orders, by pick-up time, with what to pack. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireMethod(request, ['GET', 'HEAD'])
  const { who } = await requirePermission(request, context, 'orders:read', { as: 'page', to: 'see the pick-ups' })
  const view = readPickUpView(new URL(request.url).searchParams.get('days'))
  const { from, to } = context.orders.days(view)
  const cannotMark = !mayPass(who.role, 'orders:work')
    ? 'Your role may read the pick-ups but not mark them.'
    : context.owner.required
      ? null
      : 'Claim the site and sign in to mark orders collected: the marks say who of the team did it.'
  return json({ view, from, to, orders: context.orders.pickUps(from, to), cannotMark }, { headers: ownerDataHeaders })
}

/** Marks one order collected or not collected; without JavaScript, back to the same view. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const { who } = await requirePermission(request, context, 'orders:work', {
    as: 'page',
    to: 'mark orders collected',
  })
  const form = await request.formData().catch(() => new FormData())
  const fields = formTexts(form, ['order', 'status'])
  if (!fields) return json({ error: notText }, { status: 400 })
  if (!isSubmissionId(fields.order)) return json({ error: 'There is no such order.' }, { status: 404 })
  if (!isPickUpMark(fields.status)) {
    return json({ error: 'Mark an order “collected” or “not-collected”.' }, { status: 400 })
  }
  const marked = await context.orders.mark(Number(fields.order), fields.status, who.id)
  if (!marked.ok) return json({ error: markRefusal(marked.why) }, { status: marked.why === 'cancelled' ? 409 : 404 })
  const view = readPickUpView(new URL(request.url).searchParams.get('days'))
  return redirect(`/farm-sales/pickups${view === 'week' ? '?days=week' : ''}#order-${marked.order.id}`, 303)
}

export default function PickUps() {
  const data = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const { revalidate } = useRevalidator()
  // Marked in another tab, confirmed or cancelled elsewhere: read the list again.
  const onMessage = useCallback(
    (message: LiveMessage) => {
      if (message.type === 'ORDER_CHANGED') revalidate()
    },
    [revalidate],
  )
  // What changed between the page's load and the link's first connect, or while it was down, was not heard.
  useLiveSubmissions({ newestId: 0, viewParams: null, onMessage, onReconnected: revalidate, onConnected: revalidate })
  return (
    <OwnerPage title="Pick-ups" wide>
      <PickUpsView data={data} error={refused?.error ?? null} />
    </OwnerPage>
  )
}
