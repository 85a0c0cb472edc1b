import { json, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node'
import { jsonError, readJsonBody } from '~/api/json'
import { ownerDataHeaders } from '~/owner/owner-data'
import { apiPageSizes, pageParams, readInboxQuery } from '~/submissions/inbox-query'
import { contactFields, thankYouMessage, tooManySubmissions } from '~/submissions/contact-fields'

const allow = 'GET, POST'

/** Errors never reach Remix's default handler, which answers in plain text. */
async function answerJson(context: AppLoadContext, handle: () => Promise<Response>) {
  try {
    return await handle()
  } catch (thrown) {
    if (thrown instanceof Response) throw thrown
    context.log.error({ err: thrown }, 'submissions API failed')
    return jsonError(500, 'Something went wrong on our side. Please try again.')
  }
}

export function loader({ request, context }: LoaderFunctionArgs) {
  return answerJson(context, async () => {
    if (!(await context.owner.mayWatch(request.headers.get('Cookie')))) {
      return jsonError(401, 'Sign in as the farm owner to read submissions.')
    }
    const url = new URL(request.url)
    const query = readInboxQuery(url.searchParams, apiPageSizes)
    if (!query.ok) return jsonError(400, query.error)
    const { submissions, more } = context.submissions.list(query.page)
    const headers = new Headers(ownerDataHeaders)
    const oldest = submissions.at(-1)
    if (more && oldest) {
      const next = new URL('/api/submissions', url)
      next.search = pageParams(query.page, oldest.id).toString()
      headers.set('Link', `<${next.href}>; rel="next"`)
    }
    return json(submissions, { headers })
  })
}

export function action({ request, context }: ActionFunctionArgs) {
  return answerJson(context, async () => {
    if (request.method !== 'POST') {
      return jsonError(405, `${request.method} is not allowed here.`, { Allow: allow })
    }
    const allowed = context.limits.submissions.take(context.clientAddress)
    if (!allowed.ok) {
      return jsonError(429, tooManySubmissions, { 'Retry-After': String(allowed.retryAfterSeconds) })
    }
    const read = await readJsonBody(request, 'the submission')
    if (!read.ok) return read.answer
    const body = read.body
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return jsonError(400, 'Send a JSON object with name, email and message.')
    }
    const result = await context.submissions.submit(body, context.spamTraps.caughtBy(body))
    if (!result.ok) {
      const messages = contactFields.flatMap((field) => result.errors[field] ?? [])
      return json({ error: `${messages.join('. ')}.`, errors: result.errors }, { status: 400 })
    }
    // Set aside as spam: thanked like everyone else, so a bot learns nothing.
    if (result.submission.spam) return json({ message: thankYouMessage }, { status: 202 })
    return json({ message: thankYouMessage, data: result.submission }, { status: 201 })
  })
}
