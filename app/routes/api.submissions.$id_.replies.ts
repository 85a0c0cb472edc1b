import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError, readJsonAs } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { refusalAnswer } from '#app/http/refusal.server'
import { replySchema, sendReply } from '#app/replies/reply-requests.server'
import { isSubmissionId } from '#app/leads/lead'

/** Every mail of a lead's conversation (replies and the acknowledgement), oldest first, with every word. */
export function loader({ request, params, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    await requirePermission(request, context, 'inbox:read', { as: 'api', to: 'read replies' })
    const id = params.id ?? ''
    const history = isSubmissionId(id) ? context.replies.history(Number(id)) : null
    if (!history) return jsonError(404, `There is no submission ${id}.`)
    return json({ data: history }, { headers: ownerDataHeaders })
  })
}

/**
 * The owner replies to a lead: `{"text": "…"}` → 201 with the reply (queued) and the lead as it
 * now is (handled, with its thread) and the counts that moved. The same Idempotency-Key again
 * answers 200 with the same reply, and sends nothing more.
 */
export function action({ request, params, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['POST'])
    const pass = await requirePermission(request, context, 'replies:send', { as: 'api', to: 'reply to leads' })
    const id = params.id ?? ''
    if (!isSubmissionId(id)) return jsonError(404, `There is no submission ${id}.`)
    const read = await readJsonAs(request, 'the reply', replySchema, 'Send the reply as {"text": "…"}.')
    if (!read.ok) return read.answer
    const body = read.body
    const key = request.headers.get('Idempotency-Key')
    const sent = await sendReply(
      context,
      { submissionId: Number(id), text: body.text, ...(key === null ? {} : { requestKey: key }) },
      pass.who,
    )
    if (!sent.ok) return refusalAnswer(sent)
    return json(
      { data: sent.reply, submission: sent.submission, counts: context.inbox.countsTouchedBy(sent.submission.id) },
      { status: sent.repeated ? 200 : 201, headers: ownerDataHeaders },
    )
  })
}
