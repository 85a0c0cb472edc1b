import { json, redirect, type AppLoadContext } from '@remix-run/node'
import { formTexts, notText } from '#app/http/form-text.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { cameOverHttps } from '#app/owner/request-security'
import { takeBrowserTimeZone } from '#app/clock/browser-time-zone.server'
import type { ClaimWay } from './first-owner.server'

type Context = Pick<AppLoadContext, 'team' | 'limits' | 'clientAddress' | 'settings' | 'log'>

export const claimedWords = 'The site is claimed already: its owners sign in.'
export const goneWords =
  'That link has been used, or a newer one was printed, or it is more than an hour old. Run the command again for a fresh one.'

/** Claiming the site by this way: its first owner's name, address and password, then signed in at the inbox. */
export async function claimAction(request: Request, context: Context, way: ClaimWay) {
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
  const made = await context.team.claimSite(
    way,
    fields,
    { secure: cameOverHttps(request), cookieHeader: request.headers.get('Cookie') },
    context.clientAddress,
  )
  if (!made.ok) {
    return json(
      { problem: { error: made.error, field: made.field, name: fields.name, email: fields.email } },
      { status: made.status, headers: ownerDataHeaders },
    )
  }
  await takeBrowserTimeZone(context, fields.timeZone)
  return redirect('/farm-sales', { headers: { 'Set-Cookie': made.cookie } })
}
