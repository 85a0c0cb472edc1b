import { json, type ActionFunctionArgs } from '@remix-run/node'
import { ownerDataHeaders } from '~/owner/owner-data'
import { parseSubmissionChange, submissionChangeError } from '~/submissions/submission-change'

const allow = 'PATCH'

function error(status: number, text: string, headers?: HeadersInit) {
  return json({ error: text }, { status, headers })
}

export function loader() {
  return error(405, 'Read submissions from /api/submissions; change one here with PATCH.', { Allow: allow })
}

/** The owner marks a submission handled or new, or takes it out of the spam folder. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PATCH') return error(405, `${request.method} is not allowed here.`, { Allow: allow })
  if (!(await context.owner.mayWatch(request.headers.get('Cookie')))) {
    return error(401, 'Sign in as the farm owner to change submissions.')
  }
  const id = params.id ?? ''
  if (!/^\d{1,15}$/.test(id)) return error(404, `There is no submission ${id}.`)
  const mediaType = request.headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json') return error(415, 'Send the change as JSON (Content-Type: application/json).')
  let body: unknown
  try {
    body = await request.json()
  } catch {
    return error(400, 'The request body is not valid JSON.')
  }
  const change = parseSubmissionChange(body)
  if (!change) return error(400, submissionChangeError)
  try {
    const submission = context.submissions.update(Number(id), change)
    if (!submission) return error(404, `There is no submission ${id}.`)
    return json({ data: submission }, { headers: ownerDataHeaders })
  } catch (thrown) {
    context.log.error({ err: thrown }, 'could not change a submission')
    return error(500, 'Something went wrong on our side. Please try again.')
  }
}
