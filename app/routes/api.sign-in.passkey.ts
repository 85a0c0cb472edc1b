import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError, readJsonAs } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { relyingOn } from '#app/owner/relying'
import { signingInSchema } from '#app/owner/passkeys.server'
import { cameOverHttps } from '#app/owner/request-security'
import { safeRedirect } from '#app/owner/safe-redirect'
import { recordFailedSignIn } from '#app/team/sign-in-record.server'

/** `GET /api/sign-in/passkey`: a challenge for the browser to sign with any passkey of the team's. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    const allowed = context.limits.joins.take(context.clientAddress)
    if (!allowed.ok) {
      throw jsonError(429, 'Too many sign-in attempts. Please wait a minute and try again.', {
        'Retry-After': String(allowed.retryAfterSeconds),
      })
    }
    return json({ options: await context.passkeys.signInOptions(relyingOn(request)) }, { headers: ownerDataHeaders })
  })
}

/** `POST /api/sign-in/passkey` with `{response, redirectTo}`: the signed challenge; a session, and where to go. */
export function action({ request, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['POST'])
    const allowed = context.limits.signIns.take(context.clientAddress)
    if (!allowed.ok) {
      throw jsonError(429, 'Too many sign-in attempts. Please wait a minute and try again.', {
        'Retry-After': String(allowed.retryAfterSeconds),
      })
    }
    const read = await readJsonAs(
      request,
      'the passkey',
      signingInSchema,
      'Send the browser’s {"response": …} and where to go, {"redirectTo": "/farm-sales"}.',
    )
    if (!read.ok) return read.answer
    const { response, redirectTo } = read.body
    const signedIn = await context.passkeys.signIn(response, relyingOn(request), {
      secure: cameOverHttps(request),
      cookieHeader: request.headers.get('Cookie'),
    })
    if (!signedIn.ok) {
      await recordFailedSignIn(context, null, 'passkey')
      throw jsonError(signedIn.status, signedIn.error)
    }
    return json(
      { redirectTo: safeRedirect(redirectTo ?? null) },
      { headers: { ...ownerDataHeaders, 'Set-Cookie': signedIn.cookie } },
    )
  })
}
