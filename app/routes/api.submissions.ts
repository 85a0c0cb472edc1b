import { json, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node'
import { asResponse, jsonError, requestBytes, somethingWentWrong } from '~/api/json'
import { receiveSubmission } from '~/api/receive-submission.server'
import { ownerDataHeaders } from '~/owner/owner-data'
import { apiPageSizes, pageParams, readInboxQuery } from '~/submissions/inbox-query'

const allow = 'GET, POST'

/** Errors never reach Remix's default handler, which answers in plain text. */
async function answerJson(context: AppLoadContext, handle: () => Promise<Response>) {
  try {
    return await handle()
  } catch (thrown) {
    if (thrown instanceof Response) throw thrown
    context.log.error({ err: thrown }, 'submissions API failed')
    return jsonError(500, somethingWentWrong)
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
    const posted = {
      contentType: request.headers.get('Content-Type'),
      body: await requestBytes(request),
      clientAddress: context.clientAddress,
    }
    return asResponse(await receiveSubmission(context, posted))
  })
}
