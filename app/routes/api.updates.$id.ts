import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError } from '#app/http/json.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { isSubmissionId } from '#app/leads/lead'

/** One update's report: queued, sent, failed (with the reasons), skipped, unsubscribed since. */
export function loader({ request, params, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    await requirePermission(request, context, 'updates:send', { as: 'api', to: 'read the updates' })
    // The guard found updates on.
    const desk = context.updates!
    const id = params.id ?? ''
    const report = isSubmissionId(id) ? desk.updates.report(Number(id)) : null
    if (!report) return jsonError(404, `There is no update ${id.slice(0, 40)}.`)
    return json(report, { headers: ownerDataHeaders })
  })
}
