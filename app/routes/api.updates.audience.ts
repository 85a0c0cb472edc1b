import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError } from '#app/http/json.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { refusalAnswer } from '#app/http/refusal.server'
import { readAudience, requireUpdatesOwner } from '#app/updates/update-requests.server'

/** How many subscribers an audience reaches now: `?product=eggs&intent=order` → `{recipients}`. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    const { desk } = await requireUpdatesOwner(request, context, 'read the updates')
    const query = new URL(request.url).searchParams
    const audience = readAudience(query.getAll('product'), query.getAll('intent'))
    if (!audience) return jsonError(400, 'Choose at most 50 products and 50 intents.')
    const size = desk.updates.audienceSize(audience)
    if (!size.ok) return refusalAnswer(size)
    return json({ recipients: size.recipients }, { headers: ownerDataHeaders })
  })
}
