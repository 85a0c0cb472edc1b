import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError, readJsonAs } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { relyingOn } from '#app/owner/relying'
import { addingSchema } from '#app/owner/passkeys.server'
import { requirePermission } from '#app/owner/require-permission.server'

const to = 'add a passkey'

/** A person of the team, signed in: an open inbox's anyone has no passkeys. */
async function requirePerson(request: Request, context: LoaderFunctionArgs['context']) {
  const { who } = await requirePermission(request, context, 'account:own', { as: 'api', to })
  // The open inbox was refused: whoever passed is a person of the team.
  return { id: who.id!, name: who.name }
}

/** Only POST: the options are asked for with the password, so a session alone never adds a way in. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['POST'])
    return jsonError(405, 'POST is the only method here.')
  })
}

/**
 * `POST /api/passkeys` with `{password}`: their password now, then what the browser needs to make a
 * passkey for them (a session alone, a browser left signed in, never adds a way in that outlives
 * sign out everywhere). With `{response}`: keeps the passkey the browser made (201).
 */
export function action({ request, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['POST'])
    const who = await requirePerson(request, context)
    const read = await readJsonAs(
      request,
      'the passkey',
      addingSchema,
      'Send {"password": "…"} first, then the browser’s {"response": …}.',
    )
    if (!read.ok) return read.answer
    const { password, response } = read.body
    if (typeof password === 'string') {
      // A password judged here counts as a sign-in's does: per address, and per account from anywhere.
      const allowed = context.limits.signIns.take(context.clientAddress)
      if (!allowed.ok) {
        throw jsonError(429, 'Too many password attempts. Please wait a minute and try again.', {
          'Retry-After': String(allowed.retryAfterSeconds),
        })
      }
      const checked = await context.owner.checkOwnPassword(who.id, password, context.clientAddress)
      if (checked !== 'right') {
        return jsonError(
          checked === 'wrong' ? 400 : 429,
          checked === 'wrong' ? 'Your password is not right.' : 'Too many wrong passwords. Wait a while.',
        )
      }
      const options = await context.passkeys.registrationOptions(who, relyingOn(request))
      return json({ options }, { headers: ownerDataHeaders })
    }
    const kept = await context.passkeys.register(who, response, relyingOn(request))
    if (!kept.ok) return jsonError(kept.status, kept.error)
    return json({ added: true }, { status: 201, headers: ownerDataHeaders })
  })
}
