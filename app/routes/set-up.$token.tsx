import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { cameOverHttps } from '#app/owner/request-security'
import { GoneLink, NewPasswordForm } from '#app/team/password-form'
import { takeBrowserTimeZone } from '#app/settings/browser-time-zone.server'

export const meta: MetaFunction = () => [{ title: 'Set up the farm’s inbox' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

const gone =
  'That set-up link has been used or is more than an hour old. Open the inbox on the machine the site runs on for a new one in the log.'

export function loader({ params, context }: LoaderFunctionArgs) {
  const open = context.team.setUpOpen(params.token ?? '')
  return json({ gone: open ? null : gone }, { status: open ? 200 : 410, headers: ownerDataHeaders })
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const allowed = context.limits.signIns.take(context.clientAddress)
  if (!allowed.ok) {
    return json(
      { problem: { error: 'Too many tries. Please wait a minute and try again.', name: '', email: '' } },
      { status: 429, headers: { 'Retry-After': String(allowed.retryAfterSeconds) } },
    )
  }
  const fields = formTexts(await request.formData().catch(() => new FormData()), [
    'name',
    'email',
    'password',
    'timeZone',
  ])
  if (!fields) return json({ problem: { error: notText, name: '', email: '' } }, { status: 400 })
  const made = await context.team.makeFirstOwner(
    params.token ?? '',
    fields,
    { secure: cameOverHttps(request), cookieHeader: request.headers.get('Cookie') },
    context.clientAddress,
  )
  if (!made.ok) {
    return json(
      { problem: { error: made.error, field: made.field, name: fields.name, email: fields.email } },
      { status: made.status },
    )
  }
  await takeBrowserTimeZone(context, fields.timeZone)
  return redirect('/farm-sales', { headers: { 'Set-Cookie': made.cookie } })
}

export default function SetUp() {
  const { gone: goneNow } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  if (goneNow) return <GoneLink title="Set up the farm’s inbox" error={goneNow} />
  return (
    <NewPasswordForm
      title="Set up the farm’s inbox"
      says="You are the farm’s first owner. From now on the inbox asks everyone to sign in; you add the rest of the team from your page."
      email={null}
      askName
      problem={answer?.problem ?? null}
      busy={busy}
      submit="Make me the owner"
    />
  )
}
