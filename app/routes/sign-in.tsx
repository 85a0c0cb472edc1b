import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { PasskeySignIn } from '#app/owner/passkey-sign-in'
import { cameOverHttps, isPlainHttpOffLocalhost } from '#app/owner/request-security'
import { safeRedirect } from '#app/owner/safe-redirect'
import { recordFailedSignIn } from '#app/team/sign-in-record.server'
import { BrowserTimeZone } from '#app/clock/browser-time-zone'
import { takeBrowserTimeZone } from '#app/clock/browser-time-zone.server'

export const headers = pageHeaders

export const meta: MetaFunction = () => [{ title: 'Sign in' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'))
  if (!context.owner.required || (await context.owner.passFor(request.headers.get('Cookie')))) {
    throw redirect(redirectTo)
  }
  return json({ redirectTo, withoutAddress: context.team.someoneWithoutAddress() })
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  // Counted before the password is read, so no way in to this action guesses past the limit.
  const allowed = context.limits.signIns.take(context.clientAddress)
  if (!allowed.ok) {
    return json(
      { error: 'Too many sign-in attempts. Please wait a minute and try again.' },
      { status: 429, headers: { 'Retry-After': String(allowed.retryAfterSeconds) } },
    )
  }
  const form = await request.formData().catch(() => new FormData())
  const fields = formTexts(form, ['email', 'password', 'redirectTo', 'timeZone'])
  if (!fields) return json({ error: notText }, { status: 400 })
  // Secure only over HTTPS: a browser drops a Secure cookie sent over plain HTTP on a LAN name.
  const signedIn = await context.owner.signIn(
    { email: fields.email, password: fields.password },
    { secure: cameOverHttps(request), cookieHeader: request.headers.get('Cookie'), address: context.clientAddress },
  )
  if (!signedIn.ok) {
    if (signedIn.status === 401) await recordFailedSignIn(context, signedIn.memberId)
    return json(
      { error: signedIn.error },
      {
        status: signedIn.status,
        ...(signedIn.retryAfterSeconds ? { headers: { 'Retry-After': String(signedIn.retryAfterSeconds) } } : {}),
      },
    )
  }
  if (isPlainHttpOffLocalhost(request)) {
    context.log.warn(
      { host: new URL(request.url).host },
      'someone of the team signed in over plain HTTP: the password and the session cookie crossed the network unencrypted; put TLS in front (see the README)',
    )
  }
  await takeBrowserTimeZone(context, fields.timeZone)
  return redirect(safeRedirect(fields.redirectTo), { headers: { 'Set-Cookie': signedIn.cookie } })
}

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-4 py-3 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'

export default function SignIn() {
  const { redirectTo, withoutAddress } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const signingIn = useNavigation().state === 'submitting'
  return (
    <main className="mx-auto max-w-md px-4 py-20 sm:px-6">
      <div className="rounded-3xl bg-white p-8 shadow-xl shadow-green-900/10 ring-1 ring-stone-200">
        <Form method="post">
          <h1 className="font-serif text-3xl font-bold text-green-900">Sign in</h1>
          <p className="mt-2 text-stone-700">The submissions inbox is for the farm’s team.</p>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <BrowserTimeZone />
          <label htmlFor="email" className="mt-6 mb-1.5 block text-sm font-semibold text-stone-800">
            Email
          </label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username webauthn"
            aria-describedby={withoutAddress ? 'email-hint' : undefined}
            className={fieldStyle}
          />
          {withoutAddress ? (
            <p id="email-hint" className="mt-1 text-sm text-stone-600">
              Leave it empty to sign in with the owner password the site was started with.
            </p>
          ) : null}
          <label htmlFor="password" className="mt-5 mb-1.5 block text-sm font-semibold text-stone-800">
            Password
          </label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={answer?.error ? true : undefined}
            aria-describedby={answer?.error ? 'password-error' : undefined}
            className={fieldStyle}
          />
          {answer?.error ? (
            <p id="password-error" role="alert" className="mt-1.5 text-sm font-medium text-red-700">
              {answer.error}
            </p>
          ) : null}
          <button
            type="submit"
            disabled={signingIn}
            className="mt-6 w-full rounded-xl bg-green-800 px-6 py-3 font-semibold text-white shadow hover:bg-green-900 disabled:opacity-70"
          >
            Sign in
          </button>
        </Form>
        <PasskeySignIn redirectTo={redirectTo} />
      </div>
    </main>
  )
}
