import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { cameOverHttps } from '#app/owner/request-security'
import { GoneLink, NewPasswordForm } from '#app/team/password-form'
import { takeBrowserTimeZone } from '#app/clock/browser-time-zone.server'

export const meta: MetaFunction = () => [{ title: 'Join the farm’s team' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

export function loader({ params, context }: LoaderFunctionArgs) {
  const invitation = context.team.invitation(params.token ?? '')
  if (!invitation.ok)
    return json({ invited: null, gone: invitation.error }, { status: invitation.status, headers: ownerDataHeaders })
  return json(
    { invited: { name: invitation.name, email: invitation.email, role: invitation.role }, gone: null },
    { headers: ownerDataHeaders },
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  // Each try is a password hashed: counted as sign-ins are, per address.
  const allowed = context.limits.signIns.take(context.clientAddress)
  if (!allowed.ok) {
    return json(
      { problem: { error: 'Too many tries. Please wait a minute and try again.' } },
      { status: 429, headers: { 'Retry-After': String(allowed.retryAfterSeconds) } },
    )
  }
  const fields = formTexts(await request.formData().catch(() => new FormData()), ['password', 'timeZone'])
  if (!fields) return json({ problem: { error: notText } }, { status: 400 })
  const joined = await context.team.join(
    params.token ?? '',
    fields.password,
    { secure: cameOverHttps(request), cookieHeader: request.headers.get('Cookie') },
    context.clientAddress,
  )
  if (!joined.ok) return json({ problem: { error: joined.error, field: joined.field } }, { status: joined.status })
  await takeBrowserTimeZone(context, fields.timeZone)
  return redirect('/farm-sales', { headers: { 'Set-Cookie': joined.cookie } })
}

export default function Join() {
  const { invited, gone } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  if (!invited) return <GoneLink title="Join the farm’s team" error={gone ?? ''} />
  return (
    <NewPasswordForm
      title={`Welcome, ${invited.name}`}
      says={`You are invited to the farm’s inbox as ${invited.role === 'owner' ? 'an owner' : 'a helper'}. Choose your password to join.`}
      email={invited.email}
      askName={false}
      problem={answer?.problem ?? null}
      busy={busy}
      submit="Join the team"
    />
  )
}
