import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError } from '#app/http/json.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { refusalAnswer } from '#app/http/refusal.server'
import { audienceSchema } from '#app/updates/update-requests.server'

/** How many subscribers an audience reaches now: `?product=eggs&intent=order` → `{recipients}`. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    await requirePermission(request, context, 'updates:send', { as: 'api', to: 'read the updates' })
    // The guard found updates on.
    const desk = context.updates!
    const query = new URL(request.url).searchParams
    const audience = audienceSchema.safeParse({ products: query.getAll('product'), intents: query.getAll('intent') })
    if (!audience.success) return jsonError(400, 'Choose at most 50 products and 50 intents.')
    const size = desk.updates.audienceSize(audience.data)
    if (!size.ok) return refusalAnswer(size)
    return json({ recipients: size.recipients }, { headers: ownerDataHeaders })
  })
}
