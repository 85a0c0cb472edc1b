import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { safeRedirect } from '#app/owner/safe-redirect'
import { WhoYouAre } from '#app/team/who-you-are'

export const meta: MetaFunction = () => [{ title: 'Welcome' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

/**
 * The owner OWNER_PASSWORD made has no name of their own and no address: the inbox asks for both
 * at the top until given (its form posts here); this page shows the form again when refused.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { who } = await requirePermission(request, context, 'account:own', { as: 'page' })
  const then = safeRedirect(new URL(request.url).searchParams.get('redirectTo'))
  const mine = context.team.mine(who.id!)
  if (!mine || mine.email !== null) throw redirect(then)
  return json({ then, name: mine.name === 'Owner' ? '' : mine.name }, { headers: ownerDataHeaders })
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const { who } = await requirePermission(request, context, 'account:own', { as: 'page' })
  const fields = formTexts(await request.formData().catch(() => new FormData()), ['name', 'email', 'then'])
  if (!fields) return json({ error: notText, field: null }, { status: 400 })
  const mine = context.team.mine(who.id!)
  if (!mine) return json({ error: 'You are not on the team any more.', field: null }, { status: 404 })
  if (!fields.email.trim()) {
    return json({ error: 'Enter your email address, like ann@example.com.', field: 'email' }, { status: 400 })
  }
  const changed = await context.team.changeMine(who.id!, {
    name: fields.name,
    email: fields.email,
    mailNewLeads: mine.mailNewLeads,
    pushNewLeads: mine.pushNewLeads,
  })
  if (!changed.ok) return json({ error: changed.error, field: changed.field ?? null }, { status: changed.status })
  return redirect(safeRedirect(fields.then), 303)
}

export default function Welcome() {
  const { then, name } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  return (
    <main className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-3xl font-bold text-green-900">Welcome to the farm’s inbox</h1>
      <WhoYouAre then={then} name={name} problem={answer ?? null} busy={busy} later={then} />
    </main>
  )
}
