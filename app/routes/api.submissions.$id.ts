import { json, type ActionFunctionArgs } from '@remix-run/node'
import { jsonError, readJsonBody, somethingWentWrong } from '~/api/json'
import { ownerDataHeaders } from '~/owner/owner-data'
import { isSubmissionId } from '~/submissions/inbox-query'
import { parseSubmissionChange, submissionChangeError } from '~/submissions/submission-change'

const allow = 'PATCH'

export function loader() {
  return jsonError(405, 'Read submissions from /api/submissions; change one here with PATCH.', { Allow: allow })
}

/** The owner marks a submission handled or new, or takes it out of the spam folder. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PATCH') return jsonError(405, `${request.method} is not allowed here.`, { Allow: allow })
  if (!(await context.owner.mayWatch(request.headers.get('Cookie')))) {
    return jsonError(401, 'Sign in as the farm owner to change submissions.')
  }
  const id = params.id ?? ''
  if (!isSubmissionId(id)) return jsonError(404, `There is no submission ${id}.`)
  const read = await readJsonBody(request, 'the change')
  if (!read.ok) return read.answer
  const change = parseSubmissionChange(read.body)
  if (!change) return jsonError(400, submissionChangeError)
  try {
    const submission = context.submissions.update(Number(id), change)
    if (!submission) return jsonError(404, `There is no submission ${id}.`)
    return json({ data: submission }, { headers: ownerDataHeaders })
  } catch (thrown) {
    context.log.error({ err: thrown }, 'could not change a submission')
    return jsonError(500, somethingWentWrong)
  }
}
