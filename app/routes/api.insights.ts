import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { readRange } from '#app/insights/insights'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'

/** `GET /api/insights?weeks=4|12|52`: the insights page's figures as JSON, for the owner's own tools. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['GET', 'HEAD'])
    await requirePermission(request, context, 'insights:read', { as: 'api', to: 'read the insights' })
    const range = readRange(new URL(request.url).searchParams)
    if (!range.ok) throw jsonError(400, range.error)
    return json(context.insights.figures(range.weeks), { headers: ownerDataHeaders })
  })
}

export const action = loader
