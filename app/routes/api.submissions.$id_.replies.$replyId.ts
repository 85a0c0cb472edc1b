import { json, type ActionFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError, readJsonAs } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { refusalAnswer } from '#app/http/refusal.server'
import { settleFailedReply, settlingSchema } from '#app/replies/reply-requests.server'
import { isSubmissionId } from '#app/leads/lead'

export function loader() {
  return jsonError(
    405,
    'Read a lead’s replies from /api/submissions/{id}/replies; try a failed one again here with PATCH.',
    {
      Allow: 'PATCH',
    },
  )
}

/** A failed mail to the visitor: `{"action": "retry"}` queues it again, `{"action": "dismiss"}` sets it aside. */
export function action({ request, params, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['PATCH'])
    const pass = await requirePermission(request, context, 'replies:send', {
      as: 'api',
      to: 'retry or dismiss replies',
    })
    const id = params.id ?? ''
    const replyId = params.replyId ?? ''
    if (!isSubmissionId(id) || !isSubmissionId(replyId)) {
      return jsonError(404, `There is no reply ${replyId} to submission ${id}.`)
    }
    const read = await readJsonAs(
      request,
      'the change',
      settlingSchema,
      'Send {"action": "retry"} or {"action": "dismiss"}.',
    )
    if (!read.ok) return read.answer
    const { action } = read.body
    const settled = await settleFailedReply(
      context,
      { submissionId: Number(id), replyId: Number(replyId), action },
      pass.who,
    )
    if (!settled.ok) return refusalAnswer(settled)
    return json(
      { data: settled.reply, submission: settled.submission, counts: context.inbox.countsTouchedBy(Number(id)) },
      { headers: ownerDataHeaders },
    )
  })
}
