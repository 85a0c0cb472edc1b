import { json, type ActionFunctionArgs } from '@remix-run/node'
import { parseSubmissionChange, submissionChangeError } from '#app/inbox/submission-change'
import { answeringJson, jsonError, readJsonBody } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { recordDeed } from '#app/team/deeds.server'
import { requirePermission } from '#app/owner/require-permission.server'
import { isSubmissionId } from '#app/leads/lead'

export function loader() {
  return jsonError(405, 'Read submissions from /api/submissions; change one here with PATCH, or delete it.', {
    Allow: 'PATCH, DELETE',
  })
}

/**
 * The owner marks a submission handled or new, or takes it out of the spam folder: the answer
 * carries the counts the change moved, as the live link's frame does. Or deletes it (204), with
 * its mails, and every open tab drops its card.
 */
export function action({ request, params, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['PATCH', 'DELETE'])
    const pass =
      request.method === 'DELETE'
        ? await requirePermission(request, context, 'data:erase', { as: 'api', to: 'delete submissions' })
        : await requirePermission(request, context, 'inbox:work', { as: 'api', to: 'change submissions' })
    const id = params.id ?? ''
    if (!isSubmissionId(id)) return jsonError(404, `There is no submission ${id}.`)
    if (request.method === 'DELETE') {
      if (!(await context.inbox.remove(Number(id)))) return jsonError(404, `There is no submission ${id}.`)
      await recordDeed(context, pass, 'delete', `Deleted submission ${id}`)
      return new Response(null, { status: 204, headers: ownerDataHeaders })
    }
    const read = await readJsonBody(request, 'the change')
    if (!read.ok) return read.answer
    const change = parseSubmissionChange(read.body)
    if (!change) return jsonError(400, submissionChangeError)
    const submission = await context.inbox.update(Number(id), change, pass.who.id)
    if (!submission) return jsonError(404, `There is no submission ${id}.`)
    return json(
      { data: submission, counts: context.inbox.countsTouchedBy(submission.id) },
      { headers: ownerDataHeaders },
    )
  })
}
