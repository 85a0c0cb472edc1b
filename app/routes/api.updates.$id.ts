import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError } from '#app/http/json.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { isSubmissionId } from '#app/leads/lead'
import { requireUpdatesOwner } from '#app/updates/update-requests.server'

/** One update's report: queued, sent, failed (with the reasons), skipped, unsubscribed since. */
export function loader({ request, params, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    const { desk } = await requireUpdatesOwner(request, context, 'read the updates')
    const id = params.id ?? ''
    const report = isSubmissionId(id) ? desk.updates.report(Number(id)) : null
    if (!report) return jsonError(404, `There is no update ${id.slice(0, 40)}.`)
    return json(report, { headers: ownerDataHeaders })
  })
}
